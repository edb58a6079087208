/* obs_endings.h - the windows NetHack shows at the end of a game.
 *
 * Once the game is over (program_state.gameover), every display-only window
 * (the possessions list, attributes, vanquished, genocided, conduct, the
 * dungeon overview, container contents) is kept, in order, and written in
 * the response's end object as "windows": [{"lines": [...]}, ...], so the
 * game's record keeps what the player was shown. The possessions list is a
 * pick-one menu in NetHack's code (display_inventory with a reply wanted,
 * no prompt), but nothing is done with the pick: at game over it is shown
 * as a display, never asked as a question. */
#ifndef NNH_OBS_ENDINGS_H
#define NNH_OBS_ENDINGS_H

#include "json_write.h"

/* Keep one end-of-game window's lines (no-op before the game is over). */
void nnh_endings_record(const char *const *lines, int n);

/* Append ,"windows":[...] to an end object under construction. */
void nnh_endings_write(nnh_buf *b);

#endif
