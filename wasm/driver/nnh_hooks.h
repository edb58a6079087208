/* nnh_hooks.h - the few places where NetHack calls into the semantic driver.
 *
 * Every hook is inserted by wasm/patches/nnh-hooks.patch, under
 * #ifdef NNH_DRIVER, and each exists for one reason:
 *
 *   nnh_hook_prompt    parse(), getdir(), getobj() and getpos() announce what
 *                      kind of input the next key request is for, so the
 *                      window port can publish a typed decision (command
 *                      boundary, direction, item, map position) instead of a
 *                      bare keystroke prompt.
 *   nnh_hook_final     really_done() reports how the game ended and the final
 *                      score after every bonus, before the top-ten list.
 *   nnh_hook_terminate nh_terminate() hands control to the driver, which
 *                      publishes the terminal result and keeps answering
 *                      requests; NetHack's exit() never takes the host down.
 *   nnh_clock_now      getnow() and the birthday read the profile-1 clock
 *                      fixed at session creation, not the host's clock.
 *   nnh_hook_door      doopen_indir() tells the player a closed door is
 *                      locked ("This door is locked.") or, by opening or
 *                      resisting, that it is not: lock knowledge comes only
 *                      from such player-facing disclosures.
 *   nnh_hook_oid_transfer  obfree() (shk.c) may give a stack the o_id of a
 *                      stack merged into it, to keep o_id-based shop
 *                      prices; the driver moves the surviving stack's
 *                      opaque item ID along, so gold and other merged
 *                      stacks keep the ID the player knows them by.
 *   nnh_terrain_glyph  (provided by detect.c) the player's own #terrain
 *                      view of a square, so terrain memory covers squares
 *                      first seen under an object or a creature.
 */
#ifndef NNH_HOOKS_H
#define NNH_HOOKS_H

#include <time.h>

enum nnh_prompt_kind {
    NNH_PROMPT_NONE = 0,
    NNH_PROMPT_COMMAND,   /* parse(): ready for the next command */
    NNH_PROMPT_DIRECTION, /* getdir() */
    NNH_PROMPT_ITEM,      /* getobj(); detail = the offered inventory letters */
    NNH_PROMPT_POSITION   /* getpos(); detail = goal text, x/y = cursor */
};

void nnh_hook_prompt(int kind, const char *detail, int x, int y);
void nnh_hook_final(int how);
void nnh_hook_terminate(int status);
void nnh_hook_door(int x, int y, int locked);
void nnh_hook_oid_transfer(unsigned survivor_o_id, unsigned absorbed_o_id);
time_t nnh_clock_now(void);
int nnh_terrain_glyph(int x, int y);

#endif
