/* obs_items.c - items as the player perceives them: opaque IDs, labels,
 * equipment, known facts, offered actions, and the item question's letters.
 *
 * Fairness: the label is NetHack's own doname() for this player (what the
 * tty inventory shows), and every `known` field is read from the same
 * knowledge flags doname() consults (dknown, bknown, known, rknown, the
 * type's oc_name_known and oc_uname), each under the same condition, so no
 * field says more than the label. Hallucination withholds them all. Item
 * IDs come from item_ids.c. */
#include "hack.h"
#include "nnh_state.h"
#include "obs_items.h"
#include "item_verbs.h"
#include "item_ids.h"
#include "obs_reuse.h"

/* ---- helpers ------------------------------------------------------------- */

static enum nnh_category category_of(const struct obj *o)
{
    switch (o->oclass) {
    case WEAPON_CLASS: return NNH_CAT_WEAPON;
    case ARMOR_CLASS: return NNH_CAT_ARMOR;
    case RING_CLASS: return NNH_CAT_RING;
    case AMULET_CLASS: return NNH_CAT_AMULET;
    case TOOL_CLASS: return NNH_CAT_TOOL;
    case FOOD_CLASS: return NNH_CAT_FOOD;
    case POTION_CLASS: return NNH_CAT_POTION;
    case SCROLL_CLASS: return NNH_CAT_SCROLL;
    case SPBOOK_CLASS: return NNH_CAT_SPELLBOOK;
    case WAND_CLASS: return NNH_CAT_WAND;
    case COIN_CLASS: return NNH_CAT_GOLD;
    case GEM_CLASS: return NNH_CAT_GEM;
    case ROCK_CLASS: return NNH_CAT_ROCK;
    case BALL_CLASS: return NNH_CAT_BALL;
    case CHAIN_CLASS: return NNH_CAT_CHAIN;
    case VENOM_CLASS: return NNH_CAT_VENOM;
    }
    return NNH_CAT_OTHER;
}

/* The item's category word (nnh_category_names). */
static const char *category(const struct obj *o)
{
    return nnh_category_names[category_of(o)];
}

/* The worn masks in slot order, with each slot's name and its usage word. */
static const struct { long mask; const char *slot, *usage; } worn_names[] = {
    { W_ARMU, "shirt", "worn" }, { W_ARM, "bodyArmor", "worn" }, { W_ARMC, "cloak", "worn" },
    { W_ARMH, "helmet", "worn" }, { W_ARMG, "gloves", "worn" }, { W_ARMF, "boots", "worn" },
    { W_ARMS, "shield", "worn" }, { W_RINGL, "leftRing", "worn" }, { W_RINGR, "rightRing", "worn" },
    { W_AMUL, "amulet", "worn" }, { W_TOOL, "eyewear", "worn" }, { W_WEP, "weapon", "wielded" },
    { W_QUIVER, "quiver", "quivered" }, { W_BALL, "ball", "attached" }, { W_CHAIN, "chain", "attached" } };

/* One array: the item's slots (want_slot) or their usage words. Armour
 * merged into a polymorphed form is skin, not body armour; the alternate
 * weapon is the off hand during two-weapon combat. */
static void worn_list(nnh_buf *b, const struct obj *o, int want_slot)
{
    long mask = o == uskin ? o->owornmask & ~W_ARM : o->owornmask;
    int i, first = 1;
    nnh_buf_char(b, '[');
    if (o == uskin) {
        nnh_buf_jstr(b, want_slot ? "skin" : "worn");
        first = 0;
    }
    for (i = 0; i < (int) SIZE(worn_names); i++)
        if (mask & worn_names[i].mask) {
            if (!first) nnh_buf_char(b, ',');
            first = 0;
            nnh_buf_jstr(b, want_slot ? worn_names[i].slot : worn_names[i].usage);
        }
    if (o->owornmask & W_SWAPWEP) {
        if (!first) nnh_buf_char(b, ',');
        nnh_buf_jstr(b, want_slot ? (u.twoweap ? "offhand" : "alternateWeapon")
                                  : (u.twoweap ? "wielded" : "alternate"));
    }
    nnh_buf_char(b, ']');
}

static void slots(nnh_buf *b, const struct obj *o)
{
    nnh_buf_cstr(b, ",\"usage\":");
    worn_list(b, o, 0);
    nnh_buf_cstr(b, ",\"equipmentSlots\":");
    worn_list(b, o, 1);
}

/* Erosion as add_erosion_words() (objnam.c) prints it: visible whenever
 * present on a damageable item; proofing only once rknown. */
static void erosion(nnh_buf *b, struct obj *o, int *first)
{
    if (!is_damageable(o) || o->otyp == CRYSKNIFE) return;
    if (o->oeroded || o->oeroded2) {
        int any = 0;
        nnh_buf_cstr(b, *first ? "" : ",");
        *first = 0;
        nnh_buf_cstr(b, "\"erosion\":[");
        if (o->oeroded) {
            nnh_buf_cstr(b, is_rustprone(o) ? "{\"kind\":\"rust\",\"level\":" : "{\"kind\":\"burn\",\"level\":");
            nnh_buf_int(b, o->oeroded);
            nnh_buf_char(b, '}');
            any = 1;
        }
        if (o->oeroded2) {
            if (any) nnh_buf_char(b, ',');
            nnh_buf_cstr(b, is_corrodeable(o) ? "{\"kind\":\"corrode\",\"level\":" : "{\"kind\":\"rot\",\"level\":");
            nnh_buf_int(b, o->oeroded2);
            nnh_buf_char(b, '}');
        }
        nnh_buf_char(b, ']');
    }
    if (o->rknown && o->oerodeproof) {
        nnh_buf_cstr(b, *first ? "" : ",");
        *first = 0;
        nnh_buf_cstr(b, "\"erosionProof\":true");
    }
}

static void fact_str(nnh_buf *b, const char *key, const char *value, int *first)
{
    if (!*first) nnh_buf_char(b, ',');
    *first = 0;
    nnh_buf_key(b, key);
    nnh_buf_jstr(b, value);
}

static void fact_int(nnh_buf *b, const char *key, long long value, int *first)
{
    if (!*first) nnh_buf_char(b, ',');
    *first = 0;
    nnh_buf_key(b, key);
    nnh_buf_int(b, value);
}

/* The `known` object: only what the player has learned, each field under
 * the condition doname_base() uses to print it. */
static void known_facts(nnh_buf *b, struct obj *o)
{
    const struct objclass *type = &objects[o->otyp];
    int first = 1, weaponlike = o->oclass == WEAPON_CLASS || is_weptool(o);
    nnh_buf_cstr(b, ",\"known\":{");
    if (Hallucination) {
        nnh_buf_char(b, '}');
        return;
    }
    if (o->dknown) {
        fact_str(b, "appearance", OBJ_DESCR(*type) ? OBJ_DESCR(*type) : OBJ_NAME(*type), &first);
        if (type->oc_name_known || !OBJ_DESCR(*type))
            fact_str(b, "identity", simple_typename(o->otyp), &first);
        else if (type->oc_uname)
            fact_str(b, "called", type->oc_uname, &first);
        if (has_oname(o)) fact_str(b, "name", ONAME(o), &first);
    }
    if (o->bknown && o->oclass != COIN_CLASS)
        fact_str(b, "beatitude", o->blessed ? "blessed" : o->cursed ? "cursed" : "uncursed", &first);
    if (o->known && (weaponlike || o->oclass == ARMOR_CLASS
                     || (o->oclass == RING_CLASS && type->oc_charged)))
        fact_int(b, "enchantment", o->spe, &first);
    if (o->known && (o->oclass == WAND_CLASS
                     || (o->oclass == TOOL_CLASS && !weaponlike && type->oc_charged))) {
        fact_int(b, "charges", o->spe, &first);
        fact_int(b, "recharges", o->recharged, &first);
    }
    erosion(b, o, &first);
    nnh_buf_char(b, '}');
}

/* The verbs NetHack's own prompts offer for a carried item (item_verbs.c),
 * and where it could be worn, wielded or readied. */
static void offers(nnh_buf *b, const struct obj *o)
{
    int v, first = 1, slots[NNH_SLOT_COUNT], n, i;
    nnh_buf_cstr(b, ",\"actions\":[");
    for (v = 0; v < NNH_VERB_COUNT; v++)
        if (nnh_verb_offered((enum nnh_verb) v, o)) {
            if (!first) nnh_buf_char(b, ',');
            first = 0;
            nnh_buf_jstr(b, nnh_verb_name((enum nnh_verb) v));
        }
    nnh_buf_cstr(b, "],\"equipmentTargets\":[");
    n = nnh_equip_targets(o, slots);
    for (i = 0; i < n; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_cstr(b, "{\"slot\":");
        nnh_buf_jstr(b, nnh_slot_name(slots[i]));
        nnh_buf_cstr(b, ",\"action\":\"equip\"}");
    }
    if (nnh_verb_offered(NNH_VERB_WIELD, o))
        nnh_buf_cstr(b, n++ ? ",{\"slot\":\"weapon\",\"action\":\"wield\"}"
                            : "{\"slot\":\"weapon\",\"action\":\"wield\"}");
    if (nnh_verb_offered(NNH_VERB_QUIVER, o))
        nnh_buf_cstr(b, n++ ? ",{\"slot\":\"quiver\",\"action\":\"quiver\"}"
                            : "{\"slot\":\"quiver\",\"action\":\"quiver\"}");
    nnh_buf_char(b, ']');
}

/* One item object. doname() may set dknown as a side effect of naming; a
 * read-only observation must not change what the hero knows, so restore
 * it before reading the knowledge flags. An item underfoot is named as ':'
 * names it (doname_with_price): in a tended shop the label carries
 * "(for sale, N zorkmids)" or "(no charge)", the price the player is
 * quoted; a carried unpaid item already says "(unpaid, N zorkmids)". */
void nnh_item_write(nnh_buf *b, struct obj *o, int carried)
{
    unsigned dknown = o->dknown;
    const char *label = carried ? doname(o) : doname_with_price(o);
    o->dknown = dknown;
    nnh_buf_cstr(b, "{\"id\":");
    nnh_buf_jstr(b, nnh_item_id(o->o_id));
    if (carried) {
        char letter[2] = { o->invlet, 0 };
        nnh_buf_member_str(b, "letter", letter);
    }
    nnh_buf_member_str(b, "label", label);
    nnh_buf_member_int(b, "quantity", o->quan);
    nnh_buf_member_str(b, "category", category(o));
    if (carried) slots(b, o);
    known_facts(b, o);
    if (carried) offers(b, o);
    nnh_buf_char(b, '}');
}

/* ---- the inventory ------------------------------------------------------- */

static void inventory_text(nnh_buf *b)
{
    struct obj *o;
    int first = 1;
    nnh_buf_char(b, '[');
    for (o = invent; o; o = o->nobj) {
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_item_write(b, o, 1);
    }
    nnh_buf_char(b, ']');
}

/* Everything the inventory's text is read from: each item whole (its
 * struct, name, published ID, its type's knowledge and the egg knowledge
 * doname() consults), in order, and the hero's state the labels and offers
 * read: equipment slots, two-weapon combat, form, blindness,
 * hallucination, naming options, armour being put on or taken off, and
 * the other globals doname_base() and xname_flags() consult. An unpaid
 * item's price depends on the shop: that inventory is never reused. */
static void inventory_key(nnh_section *s)
{
    struct obj *o;
    struct {
        const void *slots[16], *form, *occupation_end;
        long takeoff_what, warning_glow;
        int warned_of, no_prices, weights, merging_into_weapon, game_over;
        int twoweap, polyd, blind, hallucinating, implicit_uncursed, override_id;
    } hero;
    memset(&hero, 0, sizeof hero); /* no stray padding bytes in the key */
    hero.slots[0] = uwep, hero.slots[1] = uswapwep, hero.slots[2] = uquiver;
    hero.slots[3] = uskin, hero.slots[4] = ublindf, hero.slots[5] = uarm;
    hero.slots[6] = uarmc, hero.slots[7] = uarmh, hero.slots[8] = uarms;
    hero.slots[9] = uarmg, hero.slots[10] = uarmf, hero.slots[11] = uarmu;
    hero.slots[12] = uleft, hero.slots[13] = uright, hero.slots[14] = uamul;
    hero.form = youmonst.data, hero.twoweap = u.twoweap, hero.polyd = Upolyd;
    hero.blind = !!Blind, hero.hallucinating = !!Hallucination;
    hero.implicit_uncursed = iflags.implicit_uncursed;
    hero.override_id = iflags.override_ID; /* wizard-mode identify's menu names everything */
    /* armour being put on or taken off over several turns reads "(being
       donned)" / "(being doffed)": donning() and doffing() test these */
    hero.occupation_end = (const void *) afternmv, hero.takeoff_what = context.takeoff.what;
    /* Sting's and Orcrist's glow, prices withheld, wizard-mode weights, a
       merge message in progress, the end-of-game reveal (T-shirts) */
    hero.warning_glow = EWarn_of_mon, hero.warned_of = warn_obj_cnt;
    hero.no_prices = iflags.suppress_price || restoring, hero.weights = iflags.wizweight;
    hero.merging_into_weapon = mrg_to_wielded, hero.game_over = program_state.gameover;
    nnh_section_key(s, &hero, sizeof hero);
    for (o = invent; o; o = o->nobj) {
        const struct objclass *type = &objects[o->otyp];
        if (o->unpaid || (Has_contents(o) && count_unpaid(o->cobj))) {
            nnh_section_uncomparable(s);
            return;
        }
        nnh_section_key(s, o, sizeof *o);
        nnh_section_key_str(s, has_oname(o) ? ONAME(o) : NULL);
        nnh_section_key_str(s, nnh_item_id(o->o_id));
        nnh_section_key(s, type, sizeof *type);
        nnh_section_key_str(s, type->oc_uname);
        if (o->corpsenm >= LOW_PM && o->corpsenm < NUMMONS)
            nnh_section_key(s, &mvitals[o->corpsenm], sizeof mvitals[o->corpsenm]);
    }
}

unsigned long nnh_inventory_write(nnh_buf *b)
{
    static nnh_section inventory;
    nnh_section_begin(&inventory);
    inventory_key(&inventory);
    nnh_section_write(&inventory, b, inventory_text);
    return nnh_section_serial(&inventory);
}

/* ---- the item question's letters ------------------------------------------ */

/* getobj() (invent.c) offers "- " for bare hands, then the candidate
 * letters, compacted by compactify() into ranges once there are more than
 * five: "$a-cefh-m" is $, a, b, c, e, f, h, i, j, k, l, m. */
int nnh_letters_hands(const char *spec)
{
    return spec[0] == '-' && spec[1] == ' ';
}

int nnh_letters_offer(const char *spec, char letter)
{
    const char *p = nnh_letters_hands(spec) ? spec + 2 : spec;
    for (; *p; p++) {
        if (p[1] == '-' && p[2]) {
            if (letter >= p[0] && letter <= p[2]) return 1;
            p += 2;
        } else if (*p == letter) {
            return 1;
        }
    }
    return 0;
}
