/* item_verbs.c - the item operations' resolver (see item_verbs.h).
 *
 * The class lists below are the ones NetHack's own commands hand to
 * getobj() as their likely candidates (potion.c beverages[], zap.c
 * zap_syms[], wield.c wield_objs[] and ready_objs[], dothrow.c toss_objs[],
 * eat.c comestibles[], read.c readable[], apply.c tools[], with getobj's
 * "ugly checks" for apply and wield): an item is offered a verb when that
 * prompt would list it, except that worn things are not offered to drop
 * or throw, which NetHack always refuses. The engine still judges every
 * attempt; an offer promises neither success nor safety. */
#include "hack.h"
#include "item_verbs.h"

static const char *const verb_names[NNH_VERB_COUNT] = { "drop", "eat", "apply", "read",
    "drink", "wield", "equip", "remove", "zap", "throw", "fire", "quiver" };

/* Worn masks and the pointers NetHack keeps for each slot, in the order of
 * nnh_slot_names (nnh_vocabulary.c). */
static const long slot_masks[NNH_SLOT_COUNT] = { W_ARMU, W_ARM, W_ARMC, W_ARMH, W_ARMG,
    W_ARMF, W_ARMS, W_RINGL, W_RINGR, W_AMUL, W_TOOL };
enum { S_SHIRT, S_BODY, S_CLOAK, S_HELMET, S_GLOVES, S_BOOTS, S_SHIELD, S_LEFT_RING, S_RIGHT_RING, S_AMULET,
       S_EYEWEAR };

struct obj *nnh_slot_occupant(int slot)
{
    switch (slot) {
    case S_SHIRT: return uarmu;
    case S_BODY: return uarm;
    case S_CLOAK: return uarmc;
    case S_HELMET: return uarmh;
    case S_GLOVES: return uarmg;
    case S_BOOTS: return uarmf;
    case S_SHIELD: return uarms;
    case S_LEFT_RING: return uleft;
    case S_RIGHT_RING: return uright;
    case S_AMULET: return uamul;
    default: return ublindf;
    }
}

const char *nnh_verb_name(enum nnh_verb verb)
{
    return verb_names[verb];
}

int nnh_slot_index(const char *slot)
{
    int i;
    for (i = 0; i < NNH_SLOT_COUNT; i++)
        if (!strcmp(nnh_slot_names[i], slot)) return i;
    return -1;
}

const char *nnh_slot_name(int slot)
{
    return nnh_slot_names[slot];
}

int nnh_is_armor_family(const struct obj *o)
{
    if (o->oclass == ARMOR_CLASS) return 1;
    if (o->oclass == RING_CLASS || o->oclass == AMULET_CLASS || o->otyp == MEAT_RING
        || o->otyp == BLINDFOLD || o->otyp == TOWEL || o->otyp == LENSES)
        return 0;
    return -1;
}

int nnh_worn_slot(const struct obj *o)
{
    int i;
    if (o == uskin) return -1; /* merged into the hero's form: no slot to empty */
    for (i = 0; i < NNH_SLOT_COUNT; i++)
        if (o->owornmask & slot_masks[i]) return i;
    return -1;
}

/* The armour slot of an armour piece's category (objclass.h ARM_*). */
static int armor_slot(const struct obj *o)
{
    switch (objects[o->otyp].oc_armcat) {
    case ARM_SHIELD: return S_SHIELD;
    case ARM_HELM: return S_HELMET;
    case ARM_GLOVES: return S_GLOVES;
    case ARM_BOOTS: return S_BOOTS;
    case ARM_CLOAK: return S_CLOAK;
    case ARM_SHIRT: return S_SHIRT;
    default: return S_BODY;
    }
}

int nnh_equip_targets(const struct obj *o, int slots[NNH_SLOT_COUNT])
{
    int n = 0, family = nnh_is_armor_family(o);
    if (family < 0 || nnh_worn_slot(o) >= 0) return 0;
    if (family == 1) {
        if (!nnh_slot_occupant(armor_slot(o))) slots[n++] = armor_slot(o);
    } else if (o->oclass == RING_CLASS || o->otyp == MEAT_RING) {
        if (!uleft) slots[n++] = S_LEFT_RING;
        if (!uright) slots[n++] = S_RIGHT_RING;
    } else if (o->oclass == AMULET_CLASS) {
        if (!uamul) slots[n++] = S_AMULET;
    } else if (!ublindf) {
        slots[n++] = S_EYEWEAR;
    }
    return n;
}

int nnh_known_nodir_wand(const struct obj *o)
{
    return o->oclass == WAND_CLASS && o->dknown && objects[o->otyp].oc_name_known
           && objects[o->otyp].oc_dir == NODIR;
}

int nnh_verb_offered(enum nnh_verb verb, const struct obj *o)
{
    int slots[NNH_SLOT_COUNT];
    switch (verb) {
    case NNH_VERB_DROP:
        /* the drop prompt lists worn things too, but NetHack only answers
           "You cannot drop something you are wearing." */
        return !(o->owornmask & (W_ARMOR | W_ACCESSORY));
    case NNH_VERB_EAT: return o->oclass == FOOD_CLASS;
    case NNH_VERB_APPLY:
        return o->oclass == TOOL_CLASS
               || (o->oclass == WEAPON_CLASS
                   && (is_pick(o) || is_axe(o) || is_pole(o) || o->otyp == BULLWHIP));
    case NNH_VERB_READ: return o->oclass == SCROLL_CLASS || o->oclass == SPBOOK_CLASS;
    case NNH_VERB_DRINK: return o->oclass == POTION_CLASS;
    case NNH_VERB_WIELD:
        return o != uwep && (o->oclass == WEAPON_CLASS || is_weptool(o));
    case NNH_VERB_EQUIP: return nnh_equip_targets(o, slots) > 0;
    case NNH_VERB_REMOVE: return nnh_worn_slot(o) >= 0;
    case NNH_VERB_ZAP: return o->oclass == WAND_CLASS;
    case NNH_VERB_THROW:
        return nnh_worn_slot(o) < 0 && (o->oclass == WEAPON_CLASS || o->oclass == COIN_CLASS);
    case NNH_VERB_FIRE: return o == uquiver;
    case NNH_VERB_QUIVER:
        return o != uquiver && o != uwep && o->oclass == WEAPON_CLASS;
    default: return 0;
    }
}
