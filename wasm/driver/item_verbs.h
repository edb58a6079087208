/* item_verbs.h - the item operations' resolver: what a verb may do with an item.
 *
 * One resolver serves both sides of the protocol. The request boundary
 * (proto_translate.c) asks it which NetHack command an item operation
 * becomes and whether a request must be refused before input; the
 * observation (obs_items.c) asks it which actions and equipment targets to
 * publish for each carried item. So an item is offered an action exactly
 * when the boundary would accept that action for it.
 *
 * Every test here reads only what the player perceives: the object's class
 * and shape (an armour piece's category follows from its appearance;
 * blindfolds, towels, lenses and meat rings have no disguise), the
 * equipment it occupies now, and identities the player has learned. No
 * curse, charge, enchantment or hidden identity enters a decision. */
#ifndef ITEM_VERBS_H
#define ITEM_VERBS_H

#include "nnh_vocabulary.h" /* the slot names */

struct obj;

/* The item verbs of the low protocol ("game.<verb>"). */
enum nnh_verb {
    NNH_VERB_DROP = 0,
    NNH_VERB_EAT,
    NNH_VERB_APPLY,
    NNH_VERB_READ,
    NNH_VERB_DRINK,
    NNH_VERB_WIELD,
    NNH_VERB_EQUIP,
    NNH_VERB_REMOVE,
    NNH_VERB_ZAP,
    NNH_VERB_THROW,
    NNH_VERB_FIRE,
    NNH_VERB_QUIVER,
    NNH_VERB_COUNT
};

/* The protocol name of a verb ("drink"). Can't fail for a valid verb. */
const char *nnh_verb_name(enum nnh_verb verb);

/* 1 when NetHack's own prompt for this verb lists the item (its getobj
 * class list, or the equipment the item occupies for remove and fire) and
 * the boundary would accept it; this is the per-item `actions` list. */
int nnh_verb_offered(enum nnh_verb verb, const struct obj *o);

/* Equipment slots by protocol name; -1 for an unknown name. */
int nnh_slot_index(const char *slot);
const char *nnh_slot_name(int slot);

/* Where a carried, not yet worn item could be worn or put on: fills
 * slots[] with slot indexes (free destinations only; an occupied ring hand
 * is not a destination) and returns their number. 0 when the item is not
 * armour or an accessory, or is worn already. */
int nnh_equip_targets(const struct obj *o, int slots[NNH_SLOT_COUNT]);

/* The item worn in a slot now, or NULL. */
struct obj *nnh_slot_occupant(int slot);

/* The slot an item is worn in now, or -1 (also for armour merged into a
 * polymorphed form's skin, which no command takes off). */
int nnh_worn_slot(const struct obj *o);

/* 1 for armour, 0 for accessories (rings, amulets, blindfolds, towels,
 * lenses, meat rings), -1 for anything else. */
int nnh_is_armor_family(const struct obj *o);

/* 1 when the player knows this wand zaps without a direction (its type is
 * identified and non-directional). */
int nnh_known_nodir_wand(const struct obj *o);

#endif
