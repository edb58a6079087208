/* obs_build.c - the observation, decision and end objects of a response.
 *
 * Fairness: every field is something a tty player is shown — the status
 * line (vitals, hunger, burden, conditions, Dlvl, turn counter, gold),
 * inventory names as NetHack's own doname() spells them for this player,
 * the map as drawn (port_map.c), the message stream, and the prompts.
 * Items are written by obs_items.c. */
#include "hack.h"
#include "nnh_state.h"
#include "port_doors.h"
#include "port_map.h"
#include "obs_items.h"
#include "obs_build.h"
#include "item_ids.h"
#include "nnh_knowledge.h"
#include "pickup_config.h"
#include "nnh_nethack.h"
#include "obs_endings.h"
#include "obs_delta.h"
#include "obs_reuse.h"

/* The vocabulary's hunger, burden and end lists are indexed by NetHack's
 * own values (nnh_vocabulary.h); these hold that indexing to hack.h. */
_Static_assert(SATIATED == 0 && STARVED == NNH_HUNGER_STATES - 1, "nnh_hunger_names follows u.uhs");
_Static_assert(UNENCUMBERED == 0 && OVERLOADED == NNH_BURDEN_STATES - 1, "nnh_burden_names follows near_capacity()");
_Static_assert(DIED == 0 && ASCENDED == NNH_END_REASONS - 1, "nnh_end_reason_names follows done()'s how");

static const char *hunger_state(void)
{
    return u.uhs >= 0 && u.uhs < NNH_HUNGER_STATES ? nnh_hunger_names[u.uhs]
                                                   : nnh_hunger_names[NNH_HUNGER_STATES];
}

static const char *burden_state(int cap)
{
    return cap >= 0 && cap < NNH_BURDEN_STATES ? nnh_burden_names[cap] : nnh_burden_names[NNH_BURDEN_STATES];
}

/* Copy in without leading/trailing blanks (status words are padded). The
 * two buffers may be the same. */
static void trimmed(char *out, const char *in, size_t cap)
{
    size_t n;
    while (*in == ' ') in++;
    n = strlen(in);
    while (n && in[n - 1] == ' ') n--;
    if (n >= cap) n = cap - 1;
    memmove(out, in, n);
    out[n] = 0;
}

static void conditions(nnh_buf *b)
{
    int first = 1;
#define COND(test, name) if (test) { if (!first) nnh_buf_char(b, ','); first = 0; nnh_buf_jstr(b, name); }
    nnh_buf_cstr(b, ",\"condition\":[");
    COND(Stoned, "stone");
    COND(Slimed, "slime");
    COND(Strangled, "strangled");
    COND(Sick && (u.usick_type & SICK_VOMITABLE), "foodPoisoning");
    COND(Sick && (u.usick_type & SICK_NONVOMITABLE), "terminallyIll");
    COND(Blind, "blind");
    COND(Deaf, "deaf");
    COND(Stunned, "stunned");
    COND(Confusion, "confused");
    COND(Hallucination, "hallucinating");
    COND(Levitation, "levitating");
    COND(Flying, "flying");
    COND(u.usteed, "riding");
    COND(u.ustuck && !sticks(youmonst.data), "held");
    COND(u.ustuck && sticks(youmonst.data), "grasping");
    COND(u.uswallow, "swallowed");
    /* caught in a bear trap, pit, web, lava or the floor: the player was
       told when it happened ("A bear trap closes on your foot!"), and NetHack
       says nothing more while each move fails */
    COND(u.utrap, "trapped");
#undef COND
    nnh_buf_char(b, ']');
}

/* Strength as the status line shows it, exceptional strength included. */
static const char *strength_text(char *out)
{
    int st = ACURR(A_STR);
    if (st > 18) {
        if (st > STR18(100)) Sprintf(out, "%d", st - 100);
        else if (st < STR18(100)) Sprintf(out, "18/%02d", st - 18);
        else Strcpy(out, "18/**");
    } else {
        Sprintf(out, "%d", st);
    }
    return out;
}

static void vitals(nnh_buf *b)
{
    char label[64];
    int cap = near_capacity();
    nnh_buf_cstr(b, "{\"hp\":");
    nnh_buf_int(b, Upolyd ? u.mh : u.uhp);
    nnh_buf_member_int(b, "hpMax", Upolyd ? u.mhmax : u.uhpmax);
    nnh_buf_member_int(b, "energy", u.uen);
    nnh_buf_member_int(b, "energyMax", u.uenmax);
    nnh_buf_member_int(b, "ac", u.uac);
    nnh_buf_member_int(b, "level", Upolyd ? mons[u.umonnum].mlevel : u.ulevel);
    nnh_buf_member_int(b, "experience", u.uexp);
    nnh_buf_member_int(b, "gold", money_cnt(invent));
    nnh_buf_member_str(b, "strength", strength_text(label));
    nnh_buf_member_int(b, "dexterity", ACURR(A_DEX));
    nnh_buf_member_int(b, "constitution", ACURR(A_CON));
    nnh_buf_member_int(b, "intelligence", ACURR(A_INT));
    nnh_buf_member_int(b, "wisdom", ACURR(A_WIS));
    nnh_buf_member_int(b, "charisma", ACURR(A_CHA));
    nnh_buf_member_str(b, "alignment", u.ualign.type == A_CHAOTIC ? "chaotic"
                            : u.ualign.type == A_NEUTRAL ? "neutral" : "lawful");
    nnh_buf_member_str(b, "hunger", hunger_state());
    trimmed(label, hu_stat[u.uhs], sizeof label);
    nnh_buf_member_str(b, "hungerLabel", label);
    nnh_buf_member_str(b, "burden", burden_state(cap));
    trimmed(label, cap > 0 ? enc_stat[cap] : "", sizeof label);
    nnh_buf_member_str(b, "burdenLabel", label);
    conditions(b);
    nnh_buf_char(b, '}');
}

/* Objects underfoot, as the hero perceives them: only while able to see
 * (what ':' would describe by sight); otherwise unknown. */
static void here(nnh_buf *b)
{
    struct obj *o;
    int first = 1;
    if (Blind || Underwater || u.uswallow) {
        nnh_buf_cstr(b, "{\"known\":false}");
        return;
    }
    nnh_buf_cstr(b, "{\"known\":true,\"items\":[");
    for (o = level.objects[u.ux][u.uy]; o; o = o->nexthere) {
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_item_write(b, o, 0);
    }
    nnh_buf_cstr(b, "]}");
}

static void write_recent_messages(nnh_buf *b)
{
    int i;
    nnh_buf_char(b, '[');
    for (i = 0; i < nnh.n_recent; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_jstr(b, nnh.recent[i]);
    }
    nnh_buf_char(b, ']');
}

/* The last ten messages change only when a message is heard: written again
 * only then (obs_reuse.h; the sanitized twin checks every reuse). */
static unsigned long recent_messages(nnh_buf *b)
{
    static nnh_section recent;
    nnh_section_begin(&recent);
    nnh_section_key(&recent, &nnh.recent_changes, sizeof nnh.recent_changes);
    nnh_section_write(&recent, b, write_recent_messages);
    return nnh_section_serial(&recent);
}

/* describe_level() of the current level, trimmed: a function of u.uz
 * alone, so formatted once per level instead of at every step. */
static const char *level_label(void)
{
    static d_level labelled = { -1, -1 };
    static char label[64];
    if (!on_level(&labelled, &u.uz)) {
        (void) describe_level(label);
        trimmed(label, label, sizeof label);
        assign_level(&labelled, &u.uz);
    }
    return label;
}

/* Write the observation object. The world carries every row when
 * full_world, else only rows changed since the previous response; in a
 * delta response, members unchanged since the last one sent are null
 * (obs_delta.h). */
void nnh_obs_write(nnh_buf *b, int full_world)
{
    size_t start; /* where the member being written began (obs_delta.h) */

    nnh_map_note_level(ledger_no(&u.uz));
    nnh_buf_cstr(b, "{\"turn\":");
    nnh_buf_int(b, moves);
    nnh_buf_cstr(b, ",\"levelId\":\"d"); /* "d<dnum>-l<dlevel>", no Sprintf per step */
    nnh_buf_int(b, u.uz.dnum);
    nnh_buf_cstr(b, "-l");
    nnh_buf_int(b, u.uz.dlevel);
    nnh_buf_char(b, '"');
    nnh_buf_member_str(b, "dungeon", dungeons[u.uz.dnum].dname);
    nnh_buf_member_int(b, "depth", depth(&u.uz));
    nnh_buf_member_str(b, "levelLabel", level_label());
    nnh_buf_cstr(b, ",\"position\":{\"x\":");
    nnh_buf_int(b, u.ux);
    nnh_buf_cstr(b, ",\"y\":");
    nnh_buf_int(b, u.uy);
    nnh_buf_cstr(b, "},\"vitals\":");
    start = b->len;
    vitals(b);
    nnh_delta_settle(b, NNH_DELTA_VITALS, start);
    nnh_buf_cstr(b, ",\"inventoryKnown\":true,\"inventory\":");
    start = b->len;
    nnh_delta_settle_text(b, NNH_DELTA_INVENTORY, start, nnh_inventory_write(b));
    nnh_buf_cstr(b, ",\"here\":");
    start = b->len;
    here(b);
    nnh_delta_settle(b, NNH_DELTA_HERE, start);
    nnh_buf_cstr(b, ",\"recentMessages\":");
    start = b->len;
    nnh_delta_settle_text(b, NNH_DELTA_RECENT_MESSAGES, start, recent_messages(b));
    nnh_buf_cstr(b, ",\"entities\":");
    start = b->len;
    nnh_map_entities(b);
    nnh_delta_settle(b, NNH_DELTA_ENTITIES, start);
    nnh_buf_cstr(b, ",\"doors\":");
    start = b->len;
    nnh_doors_write(b);
    nnh_delta_settle(b, NNH_DELTA_DOORS, start);
    nnh_buf_cstr(b, ",\"traps\":");
    start = b->len;
    nnh_delta_settle_text(b, NNH_DELTA_TRAPS, start, nnh_map_traps(b));
    nnh_buf_cstr(b, ",\"knowledge\":");
    start = b->len;
    nnh_delta_settle_text(b, NNH_DELTA_KNOWLEDGE, start, nnh_knowledge_write(b));
    nnh_buf_cstr(b, ",\"automaticPickup\":");
    start = b->len;
    nnh_pickup_write(b);
    nnh_delta_settle(b, NNH_DELTA_AUTOMATIC_PICKUP, start);
    nnh_buf_cstr(b, ",\"world\":");
    nnh_map_encode(b, full_world);
    nnh_buf_char(b, '}');
}

/* ---- decision ------------------------------------------------------------ */

void nnh_decision_write(nnh_buf *b)
{
    nnh_decision *d = &nnh.decision;
    char id[32];
    int i;
    if (!d->active) {
        nnh_buf_cstr(b, "null");
        return;
    }
    Sprintf(id, "decision-%d", d->serial);
    nnh_buf_cstr(b, "{\"id\":");
    nnh_buf_jstr(b, id);
    nnh_buf_member_str(b, "kind", nnh_decision_kind_name(d->kind));
    nnh_buf_member_str(b, "prompt", d->prompt);
    nnh_buf_cstr(b, ",\"cancellable\":true");
    switch (d->kind) {
    case NNH_AT_CONFIRMATION:
        if (d->default_key) {
            char def[2] = { (char) d->default_key, 0 };
            nnh_buf_member_str(b, "default", def);
        }
        break;
    case NNH_AT_CHOICE:
        nnh_buf_member_str(b, "select", nnh_select_names[!d->is_menu || d->menu_how == PICK_ONE ? NNH_SELECT_ONE
                                                                                                  : NNH_SELECT_ANY]);
        nnh_buf_cstr(b, ",\"options\":[");
        for (i = 0; i < d->n_options; i++) {
            if (i) nnh_buf_char(b, ',');
            nnh_buf_cstr(b, "{\"id\":");
            nnh_buf_int(b, d->options[i].id);
            nnh_buf_member_str(b, "name", d->options[i].name);
            if (d->options[i].group[0]) nnh_buf_member_str(b, "group", d->options[i].group);
            if (d->options[i].preselected) nnh_buf_cstr(b, ",\"preselected\":true");
            nnh_buf_char(b, '}');
        }
        nnh_buf_char(b, ']');
        break;
    case NNH_AT_TEXT:
        if (d->key_prompt) nnh_buf_cstr(b, ",\"purpose\":\"key\",\"maxBytes\":1");
        else nnh_buf_cstr(b, ",\"maxBytes\":128");
        break;
    case NNH_AT_ITEM: {
        struct obj *o;
        int first = 1;
        nnh_buf_cstr(b, ",\"suggested\":[");
        for (o = invent; o; o = o->nobj)
            if (o->invlet && nnh_letters_offer(d->item_letters, o->invlet)) {
                if (!first) nnh_buf_char(b, ',');
                first = 0;
                nnh_buf_jstr(b, nnh_item_id(o->o_id));
            }
        nnh_buf_cstr(b, nnh_letters_hands(d->item_letters) ? "],\"hands\":true" : "],\"hands\":false");
        nnh_buf_cstr(b, d->counted ? ",\"counted\":true" : ",\"counted\":false");
        break;
    }
    case NNH_AT_POSITION:
        nnh_buf_cstr(b, ",\"mode\":\"select\",\"cursor\":{\"x\":");
        nnh_buf_int(b, d->cursor_x);
        nnh_buf_cstr(b, ",\"y\":");
        nnh_buf_int(b, d->cursor_y);
        nnh_buf_char(b, '}');
        break;
    default:
        break;
    }
    nnh_buf_char(b, '}');
}

/* ---- end ------------------------------------------------------------------ */

void nnh_end_write(nnh_buf *b)
{
    const char *how = nnh_end_reason_names[nnh.end_how >= 0 && nnh.end_how < NNH_END_REASONS
                                               ? nnh.end_how : NNH_END_REASONS];
    nnh_buf_cstr(b, "{\"how\":");
    nnh_buf_jstr(b, how);
    if (nnh.end_how >= 0) {
        nnh_buf_member_int(b, "score", nnh.end_score);
        nnh_buf_member_int(b, "turn", nnh.end_turn);
        nnh_buf_member_str(b, "death", nnh.end_death);
    }
    nnh_buf_member_int(b, "depth", depth(&u.uz));
    nnh_buf_member_int(b, "deepest", deepest_lev_reached(FALSE));
    nnh_buf_cstr(b, ",\"knowledge\":"); /* conduct, achievements, levels with the score */
    nnh_knowledge_write(b);
    nnh_endings_write(b);
    nnh_buf_char(b, '}');
}
