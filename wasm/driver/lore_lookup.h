/* lore_lookup.h - the encyclopedia, session.lookup (lore_lookup.c). */
#ifndef LORE_LOOKUP_H
#define LORE_LOOKUP_H

#include "json_write.h"

/* Append session.lookup's members for `name` (`,"kind":"lore","name":..,
 * "found":..,"lines":[..]`) to an open response object. Changes no game
 * state, sends no input, prints no message and draws no random number. */
void nnh_lore_write(nnh_buf *b, const char *name);

#endif
