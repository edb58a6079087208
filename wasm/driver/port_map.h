/* port_map.h - what the map window was shown, plus terrain memory
 * (port_map.c): the world rows, the entities and the remembered traps of
 * an observation, and the covered-square refresh at each boundary. */
#ifndef PORT_MAP_H
#define PORT_MAP_H

#include "json_write.h"

void nnh_map_reset_window(void);
void nnh_map_print_glyph(int x, int y, int glyph);
void nnh_map_note_level(int ledger);
void nnh_map_encode(nnh_buf *b, int full);
void nnh_map_mark_sent(void);
void nnh_map_entities(nnh_buf *b);

/* Refresh terrain memory under squares that show a creature, an object or
 * the hero (proto_boundary.c calls it at every input boundary). */
void nnh_map_refresh_covered(void);

/* Append the current level's remembered traps as a JSON array. Returns the
 * serial of the text written (obs_reuse.h; 0: not kept). */
unsigned long nnh_map_traps(nnh_buf *b);

#endif
