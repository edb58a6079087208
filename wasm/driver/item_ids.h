/* item_ids.h - opaque, session-scoped item IDs ("item-<n>").
 *
 * An object the hero perceives gets the next number the first time it is
 * seen and keeps it for the session, whichever NetHack o_id it moves to
 * (nnh_hook_oid_transfer). An ID is opaque: a lookup accepts exactly the
 * text that was published, byte for byte, and nothing else. */
#ifndef NNH_ITEM_IDS_H
#define NNH_ITEM_IDS_H

/* The published ID text for an object; stable for the session. The
 * pointer is to a static buffer, valid until the next call. Can't fail (a
 * full table yields "item-0", which no lookup accepts). */
const char *nnh_item_id(unsigned o_id);

/* Give every object the hero can perceive right now (inventory, then the
 * floor underfoot when it can be seen) its ID. Can't fail. */
void nnh_items_register(void);

/* Resolve a published ID. Returns 1 and sets *o_id when `id` is exactly
 * the text of an ID in use ("item-2", never "item-02", "item-2x" or
 * "item-2.junk"); otherwise returns 0 and leaves *o_id alone. */
int nnh_item_lookup(const char *id, unsigned *o_id);

#endif
