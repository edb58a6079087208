/* obs_items.h - items as the player perceives them (obs_items.c). */
#ifndef OBS_ITEMS_H
#define OBS_ITEMS_H

#include "json_write.h"

struct obj;
void nnh_item_write(nnh_buf *b, struct obj *o, int carried);
/* The inventory array; its text is reused while its inputs are unchanged
 * (obs_reuse.h). Returns the serial of the text written (0: not kept). */
unsigned long nnh_inventory_write(nnh_buf *b);
/* getobj's letter spec: whether it offers hands ('-'), and a letter. */
int nnh_letters_hands(const char *spec);
int nnh_letters_offer(const char *spec, char letter);

#endif
