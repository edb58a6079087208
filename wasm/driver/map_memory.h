/* map_memory.h - port_map.c's terrain-memory services beyond nnh_state.h's
 * map calls: the covered-square refresh at each input boundary, and the
 * remembered traps with their displayed types. */
#ifndef NNH_MAP_MEMORY_H
#define NNH_MAP_MEMORY_H

#include "json_write.h"

/* Refresh terrain memory under squares that show a creature, an object or
 * the hero (proto_boundary.c calls it at every input boundary). */
void nnh_map_refresh_covered(void);

/* Append the current level's remembered traps as a JSON array. */
void nnh_map_traps(nnh_buf *b);

#endif
