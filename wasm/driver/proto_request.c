/* proto_request.c - the low-protocol method table and request validation.
 *
 * Each method's parameters are declared once here; the same table drives
 * validation and protocol.describe. Validation is complete before the
 * boundary looks at game state, so a bad request can never send input. */
#include <stdio.h>
#include <string.h>
#include "json_write.h"
#include "proto_request.h"
#include "nnh_vocabulary.h"

/* F_ENUM_LIST: an array of distinct enum values (at most max of them);
 * F_STR_LIST: an array of at most 16 nonblank strings of min..max bytes
 * without control characters; F_OBJECT: an object whose members are the
 * nested `fields`, validated like params. */
enum field_type { F_STR, F_INT, F_BOOL, F_ENUM, F_ANSWER, F_TOKEN, F_ENUM_LIST, F_STR_LIST, F_OBJECT };

struct nnh_field {
    const char *name;
    enum field_type type;
    int required;
    long long min, max;          /* ints: range; strings: byte length */
    const char *const *values;   /* enums: the allowed words */
    const struct nnh_field *fields; /* F_OBJECT members */
    int n_values;                /* how many of `values`; 0: up to its NULL */
};

/* Direction fields take a run of nnh_direction_names (nnh_vocabulary.h):
 * the compass, the vertical pair, or all of them for an aim (zap, throw
 * and fire also aim at the hero and vertically: getdir's . < >). */
#define COMPASS nnh_direction_names, NULL, NNH_COMPASS_DIRECTIONS
#define VERTICAL nnh_direction_names + NNH_DIRECTION_UP, NULL, 2
#define AIMS nnh_direction_names, NULL, NNH_DIRECTIONS

#define SAFE 9007199254740991LL
#define SESSION { "sessionId", F_TOKEN, 1, 1, 64, NULL }
#define INPUT SESSION, { "requestId", F_TOKEN, 1, 1, 128, NULL }, \
              { "expectedRevision", F_INT, 1, 0, SAFE, NULL }, \
              { "quiet", F_BOOL, 0, 0, 0, NULL }, { "delta", F_BOOL, 0, 0, 0, NULL }
#define END { NULL, 0, 0, 0, 0, NULL }

/* automatic pickup settings: game.configurePickup's params and
 * session.create's automaticPickup object */
#define PICKUP_SETTINGS { "enabled", F_BOOL, 1, 0, 0, NULL }, \
    { "itemTypes", F_ENUM_LIST, 1, 0, NNH_PICKUP_TYPES, nnh_pickup_type_names }, { "arrows", F_BOOL, 1, 0, 0, NULL }, \
    { "leaveCorpses", F_BOOL, 1, 0, 0, NULL }, { "leaveKnownCursed", F_BOOL, 1, 0, 0, NULL }, \
    { "lootPatterns", F_STR_LIST, 0, 1, 64, NULL }, { "ignorePatterns", F_STR_LIST, 0, 1, 64, NULL }

static const struct nnh_field f_none[] = { END };
static const struct nnh_field f_pickup_settings[] = { PICKUP_SETTINGS, END };
static const struct nnh_field f_create[] = {
    { "seed", F_INT, 0, 0, 4294967295LL, NULL },
    { "name", F_STR, 0, 1, 31, NULL },
    { "role", F_ENUM, 0, 0, 0, nnh_role_names },
    { "race", F_ENUM, 0, 0, 0, nnh_race_names },
    { "gender", F_ENUM, 0, 0, 0, nnh_gender_names },
    { "alignment", F_ENUM, 0, 0, 0, nnh_alignment_names },
    { "harness_name", F_STR, 0, 0, 120, NULL },
    { "model_name", F_STR, 0, 0, 120, NULL },
    { "createdAt", F_INT, 0, 0, 4102444800LL, NULL },
    { "sessionId", F_TOKEN, 0, 1, 64, NULL },
    { "wizard", F_BOOL, 0, 0, 0, NULL },
    { "automaticPickup", F_OBJECT, 0, 0, 0, NULL, f_pickup_settings },
    END };
static const struct nnh_field f_session[] = { SESSION, END };
static const struct nnh_field f_input[] = { INPUT, END };
static const struct nnh_field f_direction[] = { INPUT, { "direction", F_ENUM, 1, 0, 0, COMPASS }, END };
static const struct nnh_field f_optional_direction[] = { INPUT, { "direction", F_ENUM, 0, 0, 0, COMPASS }, END };
static const struct nnh_field f_run[] = { INPUT, { "direction", F_ENUM, 1, 0, 0, COMPASS },
    { "mode", F_ENUM, 0, 0, 0, nnh_run_mode_names }, { "noPickup", F_BOOL, 0, 0, 0, NULL }, END };
static const struct nnh_field f_counted[] = { INPUT, { "turns", F_INT, 0, 1, 1000, NULL }, END };
static const struct nnh_field f_climb[] = { INPUT, { "direction", F_ENUM, 1, 0, 0, VERTICAL }, END };
/* an item argument: an opaque ID or a perceived-name query (item_query.c) */
#define ITEM { "itemId", F_TOKEN, 0, 1, 64, NULL }, { "itemName", F_STR, 0, 1, 120, NULL }
static const struct nnh_field f_item[] = { INPUT, ITEM, END };
static const struct nnh_field f_drop[] = { INPUT, ITEM,
    { "quantity", F_INT, 0, 1, 2147483647LL, NULL }, END };
static const struct nnh_field f_hands[] = { INPUT, ITEM, { "hands", F_BOOL, 0, 0, 0, NULL }, END };
static const struct nnh_field f_equip[] = { INPUT, ITEM, { "slot", F_ENUM, 0, 0, 0, nnh_slot_names }, END };
static const struct nnh_field f_aimed_item[] = { INPUT, ITEM, { "direction", F_ENUM, 0, 0, 0, AIMS }, END };
static const struct nnh_field f_aim[] = { INPUT, { "direction", F_ENUM, 0, 0, 0, AIMS }, END };
static const struct nnh_field f_answer[] = { INPUT, { "decisionId", F_TOKEN, 1, 1, 64, NULL },
    { "answer", F_ANSWER, 1, 0, 0, NULL }, END };
static const struct nnh_field f_cancel[] = { INPUT, { "decisionId", F_TOKEN, 1, 1, 64, NULL }, END };
static const struct nnh_field f_lookup[] = { SESSION, { "name", F_STR, 1, 1, 120, NULL }, END };
static const struct nnh_field f_engrave[] = { INPUT, ITEM, { "hands", F_BOOL, 0, 0, 0, NULL },
    { "text", F_STR, 0, 1, 128, NULL }, END };
static const struct nnh_field f_cast[] = { INPUT, { "spell", F_STR, 0, 1, 64, NULL },
    { "direction", F_ENUM, 0, 0, 0, AIMS }, END };
static const struct nnh_field f_pickup[] = { INPUT, PICKUP_SETTINGS, END };
static const struct nnh_field f_wizard[] = { INPUT, { "command", F_ENUM, 1, 0, 0, nnh_wizard_command_names }, END };

/* One row per method, in nnh_method_id order: id, name, class, params,
 * summary. */
static const nnh_method methods[] = {
    { NNH_M_DESCRIBE, "protocol.describe", NNH_LIFECYCLE, f_none, "List methods and capabilities." },
    { NNH_M_CREATE, "session.create", NNH_LIFECYCLE, f_create, "Start a game; omitted choices come from the seed." },
    { NNH_M_OBSERVE, "session.observe", NNH_LIFECYCLE, f_session, "Current observation with the full world; no input, no turn." },
    { NNH_M_LOOKUP, "session.lookup", NNH_LIFECYCLE, f_lookup, "Encyclopedia entry for a typed name (data.base); no input." },
    { NNH_M_CLOSE, "session.close", NNH_LIFECYCLE, f_session, "Retire the engine; does not quit the game." },
    { NNH_M_MOVE, "game.move", NNH_GAMEPLAY, f_direction, "One ordinary step." },
    { NNH_M_RUN, "game.run", NNH_GAMEPLAY, f_run, "Run: normal, untilInteresting (g) or pastBranches (G)." },
    { NNH_M_MOVE_WITHOUT_ATTACK, "game.moveWithoutAttack", NNH_GAMEPLAY, f_direction, "Step without picking up or fighting (m)." },
    { NNH_M_ATTACK, "game.attack", NNH_GAMEPLAY, f_direction, "Force one attack (F)." },
    { NNH_M_WAIT, "game.wait", NNH_GAMEPLAY, f_input, "Wait one turn." },
    { NNH_M_SEARCH, "game.search", NNH_GAMEPLAY, f_counted, "Search, optionally counted (1-1000)." },
    { NNH_M_REST, "game.rest", NNH_GAMEPLAY, f_counted, "Rest, optionally counted (1-1000)." },
    { NNH_M_CLIMB, "game.climb", NNH_GAMEPLAY, f_climb, "Climb stairs or a ladder up or down." },
    { NNH_M_PICKUP, "game.pickup", NNH_GAMEPLAY, f_input, "Pick up from the floor; choices are decisions." },
    { NNH_M_DROP, "game.drop", NNH_GAMEPLAY, f_drop, "Drop an item (optionally a partial count)." },
    { NNH_M_EAT, "game.eat", NNH_GAMEPLAY, f_item, "Eat; omit itemId for the engine's selection." },
    { NNH_M_APPLY, "game.apply", NNH_GAMEPLAY, f_item, "Apply an item." },
    { NNH_M_READ, "game.read", NNH_GAMEPLAY, f_item, "Read an item." },
    { NNH_M_DRINK, "game.drink", NNH_GAMEPLAY, f_item, "Drink (quaff) a potion; omit itemId for the engine's selection." },
    { NNH_M_WIELD, "game.wield", NNH_GAMEPLAY, f_hands, "Wield an item, or hands:true for bare hands (w)." },
    { NNH_M_EQUIP, "game.equip", NNH_GAMEPLAY, f_equip, "Wear armour or put on an accessory; optional slot (W/P)." },
    { NNH_M_REMOVE, "game.remove", NNH_GAMEPLAY, f_equip, "Take off armour or remove an accessory; optional slot (T/R)." },
    { NNH_M_ZAP, "game.zap", NNH_GAMEPLAY, f_aimed_item, "Zap a wand; direction may be self, up or down (z)." },
    { NNH_M_THROW, "game.throw", NNH_GAMEPLAY, f_aimed_item, "Throw an item; one engine command incl. multishot (t)." },
    { NNH_M_FIRE, "game.fire", NNH_GAMEPLAY, f_aim, "Fire the quivered item; one engine command incl. multishot (f)." },
    { NNH_M_QUIVER, "game.quiver", NNH_GAMEPLAY, f_hands, "Ready an item in the quiver, or hands:true to empty it (Q)." },
    { NNH_M_SWAP, "game.swap", NNH_GAMEPLAY, f_input, "Swap primary and alternate weapons (x)." },
    { NNH_M_TWO_WEAPON, "game.twoWeapon", NNH_GAMEPLAY, f_input, "Toggle two-weapon combat (#twoweapon)." },
    { NNH_M_OPEN, "game.open", NNH_GAMEPLAY, f_optional_direction, "Open a door; omit direction to be asked." },
    { NNH_M_CLOSE_DOOR, "game.close", NNH_GAMEPLAY, f_optional_direction, "Close a door; omit direction to be asked." },
    { NNH_M_KICK, "game.kick", NNH_GAMEPLAY, f_optional_direction, "Kick; omit direction to be asked." },
    { NNH_M_ENGRAVE, "game.engrave", NNH_GAMEPLAY, f_engrave, "Engrave with an item or hands:true (fingers); text, or asked." },
    { NNH_M_CHAT, "game.chat", NNH_GAMEPLAY, f_optional_direction, "Talk (#chat); omit direction to be asked." },
    { NNH_M_PAY, "game.pay", NNH_GAMEPLAY, f_input, "Pay a shopkeeper (p)." },
    { NNH_M_OFFER, "game.offer", NNH_GAMEPLAY, f_item, "Sacrifice at an altar (#offer); floor corpses are asked first." },
    { NNH_M_DIP, "game.dip", NNH_GAMEPLAY, f_item, "Dip an item (#dip); what into is asked." },
    { NNH_M_RUB, "game.rub", NNH_GAMEPLAY, f_item, "Rub a lamp or stone (#rub)." },
    { NNH_M_INVOKE, "game.invoke", NNH_GAMEPLAY, f_item, "Invoke an artifact's power (#invoke)." },
    { NNH_M_LOOT, "game.loot", NNH_GAMEPLAY, f_input, "Open a container here (#loot); what to do is a menu." },
    { NNH_M_FORCE, "game.force", NNH_GAMEPLAY, f_input, "Force a box's lock here with the wielded weapon (#force)." },
    { NNH_M_CAST, "game.cast", NNH_GAMEPLAY, f_cast, "Cast a known spell by name, or choose from the menu (Z)." },
    { NNH_M_ENHANCE, "game.enhance", NNH_GAMEPLAY, f_input, "Advance a skill from #enhance's menu." },
    { NNH_M_PRAY, "game.pray", NNH_GAMEPLAY, f_input, "Pray (the engine asks for confirmation)." },
    { NNH_M_QUIT, "game.quit", NNH_GAMEPLAY, f_input, "Ask NetHack to quit; it asks for confirmation." },
    { NNH_M_CONFIGURE_PICKUP, "game.configurePickup", NNH_GAMEPLAY, f_pickup, "Replace the automatic pickup settings; no turn." },
    { NNH_M_ANSWER, "decision.answer", NNH_CONTINUATION, f_answer, "Answer the standing decision by its exact ID." },
    { NNH_M_CANCEL, "decision.cancel", NNH_CONTINUATION, f_cancel, "Cancel the standing decision by its exact ID." },
    { NNH_M_WIZARD, "debug.wizard", NNH_GAMEPLAY, f_wizard, "Wizard-mode fixture command (wizard sessions only)." },
};

#define N_METHODS ((int) (sizeof methods / sizeof methods[0]))
_Static_assert(N_METHODS == NNH_METHOD_COUNT, "one validation row per nnh_method_id");

const nnh_method *nnh_methods(int *count)
{
    *count = N_METHODS;
    return methods;
}

/* Copy the longest prefix of s that fits in cap - 1 bytes and ends on a
 * character boundary: s is valid UTF-8 (the reader checked every byte),
 * and an echoed name must stay valid UTF-8 and a true prefix of what the
 * client sent, never a character cut in half. Can't fail. */
static void copy_whole_chars(char *out, size_t cap, const char *s)
{
    size_t n = strlen(s);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char) s[n] & 0xC0) == 0x80) n--; /* s[n] continues a character */
    }
    memcpy(out, s, n);
    out[n] = 0;
}

static int fail(nnh_request *req, const char *code, const char *field, const char *message)
{
    snprintf(req->code, sizeof req->code, "%s", code);
    copy_whole_chars(req->field, sizeof req->field, field ? field : "");
    snprintf(req->message, sizeof req->message, "%s", message);
    return -1;
}

static const nnh_json_node *node(const nnh_json_doc *doc, int i)
{
    return nnh_json_node_at(doc, i);
}

/* Opaque tokens: URL-safe ASCII only, so they can never carry markup or
 * control characters into logs and pages. */
static int is_token(const char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')
              || *s == '-' || *s == '_' || *s == '.' || *s == ':'))
            return 0;
    return 1;
}

static int has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char) *s < 0x20 || *s == 0x7f) return 1;
    return 0;
}

/* How many words a field allows. Can't fail. */
static int value_count(const struct nnh_field *f)
{
    int n = 0;
    if (f->n_values) return f->n_values;
    while (f->values[n]) n++;
    return n;
}

/* 1 when s is one of the field's allowed words. */
static int field_allows(const struct nnh_field *f, const char *s)
{
    int i, n = value_count(f);
    for (i = 0; i < n; i++)
        if (!strcmp(s, f->values[i])) return 1;
    return 0;
}

static int check_object_keys(nnh_request *req, int obj, const char *const *allowed, const char *where)
{
    const nnh_json_doc *doc = req->doc;
    int c;
    for (c = node(doc, obj)->first_child; c >= 0; c = node(doc, c)->next_sibling) {
        if (nnh_word_index(allowed, node(doc, c)->key) < 0) {
            char msg[160], name[61];
            copy_whole_chars(name, sizeof name, node(doc, c)->key);
            snprintf(msg, sizeof msg, "unknown field '%s' in %s", name, where);
            return fail(req, "unknownField", node(doc, c)->key, msg);
        }
    }
    return 0;
}

/* Answer shapes, one per decision kind (see docs/PROTOCOL.md). */
static int check_answer(nnh_request *req, int a)
{
    static const char *const k_confirm[] = { "kind", "confirm", NULL };
    static const char *const k_choice[] = { "kind", "choose", NULL };
    static const char *const k_text[] = { "kind", "text", NULL };
    static const char *const k_direction[] = { "kind", "direction", NULL };
    static const char *const k_item[] = { "kind", "item", "hands", "quantity", NULL };
    static const char *const k_position[] = { "kind", "position", NULL };
    static const char *const k_ref[] = { "id", NULL };
    static const char *const k_xy[] = { "x", "y", NULL };
    const nnh_json_doc *doc = req->doc;
    int kind = nnh_json_member(doc, a, "kind"), v;
    const char *k;

    if (node(doc, a)->kind != NNH_JSON_OBJECT) return fail(req, "wrongType", "answer", "answer must be an object");
    if (kind < 0) return fail(req, "missingField", "kind", "answer.kind is required");
    if (node(doc, kind)->kind != NNH_JSON_STRING) return fail(req, "wrongType", "kind", "answer.kind must be a string");
    k = node(doc, kind)->str;
    switch (nnh_decision_kind_named(k)) {
    case NNH_AT_CONFIRMATION:
        if (check_object_keys(req, a, k_confirm, "answer")) return -1;
        v = nnh_json_member(doc, a, "confirm");
        if (v < 0) return fail(req, "missingField", "confirm", "confirmation answers need confirm");
        if (node(doc, v)->kind != NNH_JSON_BOOL) return fail(req, "wrongType", "confirm", "confirm must be a boolean");
        return 0;
    case NNH_AT_CHOICE: {
        int c, seen = 0;
        if (check_object_keys(req, a, k_choice, "answer")) return -1;
        v = nnh_json_member(doc, a, "choose");
        if (v < 0) return fail(req, "missingField", "choose", "choice answers need choose");
        if (node(doc, v)->kind != NNH_JSON_ARRAY) return fail(req, "wrongType", "choose", "choose must be an array of choice IDs");
        if (node(doc, v)->child_count < 1 || node(doc, v)->child_count > 64)
            return fail(req, "outOfRange", "choose", "choose holds 1 to 64 IDs; use decision.cancel to choose nothing");
        for (c = node(doc, v)->first_child; c >= 0; c = node(doc, c)->next_sibling, seen++) {
            int d;
            if (node(doc, c)->kind != NNH_JSON_NUMBER || !node(doc, c)->is_integer)
                return fail(req, "wrongType", "choose", "choice IDs are integers");
            if (node(doc, c)->int_val < 0 || node(doc, c)->int_val > 4095)
                return fail(req, "outOfRange", "choose", "choice ID out of range");
            for (d = node(doc, v)->first_child; d != c; d = node(doc, d)->next_sibling)
                if (node(doc, d)->int_val == node(doc, c)->int_val)
                    return fail(req, "duplicateChoice", "choose", "a choice ID appears twice");
        }
        return 0;
    }
    case NNH_AT_TEXT:
        if (check_object_keys(req, a, k_text, "answer")) return -1;
        v = nnh_json_member(doc, a, "text");
        if (v < 0) return fail(req, "missingField", "text", "text answers need text");
        if (node(doc, v)->kind != NNH_JSON_STRING) return fail(req, "wrongType", "text", "text must be a string");
        if (node(doc, v)->str_len > 128) return fail(req, "outOfRange", "text", "text is at most 128 bytes");
        if (has_control(node(doc, v)->str)) return fail(req, "outOfRange", "text", "text has control characters");
        return 0;
    case NNH_AT_DIRECTION:
        if (check_object_keys(req, a, k_direction, "answer")) return -1;
        v = nnh_json_member(doc, a, "direction");
        if (v < 0) return fail(req, "missingField", "direction", "direction answers need direction");
        if (node(doc, v)->kind != NNH_JSON_STRING) return fail(req, "wrongType", "direction", "direction must be a string");
        if (nnh_direction_index(node(doc, v)->str) < 0)
            return fail(req, "outOfRange", "direction", "direction is a compass word, self, up or down");
        return 0;
    case NNH_AT_ITEM: {
        int item, hands, qty;
        if (check_object_keys(req, a, k_item, "answer")) return -1;
        item = nnh_json_member(doc, a, "item");
        hands = nnh_json_member(doc, a, "hands");
        qty = nnh_json_member(doc, a, "quantity");
        if ((item < 0) == (hands < 0)) return fail(req, "missingField", "item", "item answers need exactly one of item or hands");
        if (hands >= 0 && (node(doc, hands)->kind != NNH_JSON_BOOL || !node(doc, hands)->bool_val))
            return fail(req, "wrongType", "hands", "hands must be true");
        if (item >= 0) {
            int id;
            if (node(doc, item)->kind != NNH_JSON_OBJECT) return fail(req, "wrongType", "item", "item must be {id}");
            if (check_object_keys(req, item, k_ref, "answer.item")) return -1;
            id = nnh_json_member(doc, item, "id");
            if (id < 0) return fail(req, "missingField", "id", "item.id is required");
            if (node(doc, id)->kind != NNH_JSON_STRING || !is_token(node(doc, id)->str)
                || node(doc, id)->str_len < 1 || node(doc, id)->str_len > 64)
                return fail(req, "wrongType", "id", "item.id must be an opaque item ID");
        }
        if (qty >= 0 && (node(doc, qty)->kind != NNH_JSON_NUMBER || !node(doc, qty)->is_integer
                         || node(doc, qty)->int_val < 1 || node(doc, qty)->int_val > 2147483647LL))
            return fail(req, "outOfRange", "quantity", "quantity is a positive integer");
        return 0;
    }
    case NNH_AT_POSITION:
        if (check_object_keys(req, a, k_position, "answer")) return -1;
        v = nnh_json_member(doc, a, "position");
        if (v < 0) return fail(req, "missingField", "position", "position answers need position");
        if (node(doc, v)->kind == NNH_JSON_STRING) {
            const char *word = node(doc, v)->str;
            if (nnh_word_index(nnh_position_word_names, word) < 0
                && !(nnh_direction_index(word) >= 0 && nnh_direction_index(word) < NNH_COMPASS_DIRECTIONS))
                return fail(req, "outOfRange", "position", "position is {x,y}, help, finish or a compass word");
        } else if (node(doc, v)->kind == NNH_JSON_OBJECT) {
            int x, y;
            if (check_object_keys(req, v, k_xy, "answer.position")) return -1;
            x = nnh_json_member(doc, v, "x");
            y = nnh_json_member(doc, v, "y");
            if (x < 0 || y < 0) return fail(req, "missingField", x < 0 ? "x" : "y", "position needs x and y");
            if (node(doc, x)->kind != NNH_JSON_NUMBER || !node(doc, x)->is_integer
                || node(doc, y)->kind != NNH_JSON_NUMBER || !node(doc, y)->is_integer)
                return fail(req, "wrongType", "position", "x and y are integers");
            if (node(doc, x)->int_val < 1 || node(doc, x)->int_val > 79
                || node(doc, y)->int_val < 0 || node(doc, y)->int_val > 20)
                return fail(req, "outOfRange", "position", "x is 1-79 and y is 0-20");
        } else {
            return fail(req, "wrongType", "position", "position is an object or a string");
        }
        return 0;
    default:
        return fail(req, "outOfRange", "kind", "unknown answer kind");
    }
}

static int check_list(nnh_request *req, const struct nnh_field *f, int v)
{
    const nnh_json_doc *doc = req->doc;
    int c, d, cap = f->type == F_ENUM_LIST ? (int) f->max : 16;
    char msg[160];
    if (node(doc, v)->kind != NNH_JSON_ARRAY) {
        snprintf(msg, sizeof msg, "%s must be an array of strings", f->name);
        return fail(req, "wrongType", f->name, msg);
    }
    if (node(doc, v)->child_count > cap) {
        snprintf(msg, sizeof msg, "%s holds at most %d entries", f->name, cap);
        return fail(req, "outOfRange", f->name, msg);
    }
    for (c = node(doc, v)->first_child; c >= 0; c = node(doc, c)->next_sibling) {
        const nnh_json_node *n = node(doc, c);
        const char *p;
        if (n->kind != NNH_JSON_STRING) {
            snprintf(msg, sizeof msg, "%s must be an array of strings", f->name);
            return fail(req, "wrongType", f->name, msg);
        }
        if (f->type == F_ENUM_LIST) {
            if (!field_allows(f, n->str)) {
                snprintf(msg, sizeof msg, "%s has an unsupported value", f->name);
                return fail(req, "outOfRange", f->name, msg);
            }
            for (d = node(doc, v)->first_child; d != c; d = node(doc, d)->next_sibling)
                if (!strcmp(node(doc, d)->str, n->str)) {
                    snprintf(msg, sizeof msg, "%s names a value twice", f->name);
                    return fail(req, "outOfRange", f->name, msg);
                }
            continue;
        }
        for (p = n->str; *p == ' '; p++) continue;
        if ((long long) n->str_len < f->min || (long long) n->str_len > f->max || !*p
            || has_control(n->str)) {
            snprintf(msg, sizeof msg, "each %s entry is %lld to %lld bytes, not blank, no control characters",
                     f->name, f->min, f->max);
            return fail(req, "outOfRange", f->name, msg);
        }
    }
    return 0;
}

static int check_field(nnh_request *req, const struct nnh_field *f, int v);

/* The members of `obj` against `fields`: unknown, malformed or missing
 * members are typed errors; `where` names the object in messages. */
static int check_members(nnh_request *req, const struct nnh_field *fields, int obj, const char *where)
{
    const nnh_json_doc *doc = req->doc;
    const struct nnh_field *f;
    int c;
    char msg[160];
    for (c = obj < 0 ? -1 : node(doc, obj)->first_child; c >= 0; c = node(doc, c)->next_sibling) {
        for (f = fields; f->name; f++)
            if (!strcmp(f->name, node(doc, c)->key)) break;
        if (!f->name) {
            char name[61];
            copy_whole_chars(name, sizeof name, node(doc, c)->key);
            snprintf(msg, sizeof msg, "%s does not accept '%s'", where, name);
            return fail(req, "unknownField", node(doc, c)->key, msg);
        }
        if (check_field(req, f, c)) return -1;
    }
    for (f = fields; f->name; f++)
        if (f->required && (obj < 0 || nnh_json_member(doc, obj, f->name) < 0)) {
            snprintf(msg, sizeof msg, "%s requires %s", where, f->name);
            return fail(req, "missingField", f->name, msg);
        }
    return 0;
}

static int check_field(nnh_request *req, const struct nnh_field *f, int v)
{
    const nnh_json_node *n = node(req->doc, v);
    char msg[160];
    switch (f->type) {
    case F_STR:
    case F_TOKEN:
    case F_ENUM:
        if (n->kind != NNH_JSON_STRING) {
            snprintf(msg, sizeof msg, "%s must be a string", f->name);
            return fail(req, "wrongType", f->name, msg);
        }
        if (f->type == F_ENUM) {
            if (!field_allows(f, n->str)) {
                snprintf(msg, sizeof msg, "%s has an unsupported value", f->name);
                return fail(req, "outOfRange", f->name, msg);
            }
            return 0;
        }
        if ((long long) n->str_len < f->min || (long long) n->str_len > f->max) {
            snprintf(msg, sizeof msg, "%s must be %lld to %lld bytes", f->name, f->min, f->max);
            return fail(req, "outOfRange", f->name, msg);
        }
        if (f->type == F_TOKEN && !is_token(n->str)) {
            snprintf(msg, sizeof msg, "%s must use letters, digits and -_.: only", f->name);
            return fail(req, "outOfRange", f->name, msg);
        }
        if (f->type == F_STR && has_control(n->str)) {
            snprintf(msg, sizeof msg, "%s must not contain control characters", f->name);
            return fail(req, "outOfRange", f->name, msg);
        }
        return 0;
    case F_INT:
        if (n->kind != NNH_JSON_NUMBER || !n->is_integer) {
            snprintf(msg, sizeof msg, "%s must be an integer", f->name);
            return fail(req, "wrongType", f->name, msg);
        }
        if (n->int_val < f->min || n->int_val > f->max) {
            snprintf(msg, sizeof msg, "%s must be %lld to %lld", f->name, f->min, f->max);
            return fail(req, "outOfRange", f->name, msg);
        }
        return 0;
    case F_BOOL:
        if (n->kind != NNH_JSON_BOOL) {
            snprintf(msg, sizeof msg, "%s must be a boolean", f->name);
            return fail(req, "wrongType", f->name, msg);
        }
        return 0;
    case F_ANSWER:
        return check_answer(req, v);
    case F_ENUM_LIST:
    case F_STR_LIST:
        return check_list(req, f, v);
    case F_OBJECT:
        if (n->kind != NNH_JSON_OBJECT) {
            snprintf(msg, sizeof msg, "%s must be an object", f->name);
            return fail(req, "wrongType", f->name, msg);
        }
        return check_members(req, f->fields, v, f->name);
    }
    return 0;
}

int nnh_request_parse(nnh_request *req, nnh_json_doc *doc, const char *line, int len)
{
    static const char *const envelope[] = { "version", "method", "params", NULL };
    int root, version, method, params, i, status;
    const nnh_json_node *r;

    memset(req, 0, sizeof *req);
    req->doc = doc;
    req->params = -1;
    if (len > NNH_JSON_MAX_INPUT)
        return fail(req, "tooLarge", NULL, "request frames are at most 4096 bytes");
    status = nnh_json_parse(doc, line, (size_t) len);
    if (status == NNH_JSON_CONTROL_CHARACTER)
        return fail(req, nnh_json_status_code(status), NULL,
                    "a string contains U+0000, a control character no field accepts");
    if (status != NNH_JSON_OK)
        return fail(req, nnh_json_status_code(status), NULL, "request is not valid strict JSON");
    root = nnh_json_root(doc);
    r = node(doc, root);
    if (r->kind != NNH_JSON_OBJECT) return fail(req, "wrongType", NULL, "a request is a JSON object");
    if (check_object_keys(req, root, envelope, "request")) return -1;
    version = nnh_json_member(doc, root, "version");
    method = nnh_json_member(doc, root, "method");
    params = nnh_json_member(doc, root, "params");
    if (version < 0) return fail(req, "missingField", "version", "version is required");
    if (node(doc, version)->kind != NNH_JSON_NUMBER || !node(doc, version)->is_integer
        || node(doc, version)->int_val != 1)
        return fail(req, "unsupportedVersion", "version", "only version 1 is supported");
    if (method < 0) return fail(req, "missingField", "method", "method is required");
    if (node(doc, method)->kind != NNH_JSON_STRING) return fail(req, "wrongType", "method", "method must be a string");
    for (i = 0; i < N_METHODS && !req->method; i++)
        if (!strcmp(methods[i].name, node(doc, method)->str)) req->method = &methods[i];
    if (!req->method) return fail(req, "unknownMethod", "method", "no such method; see protocol.describe");
    if (params >= 0 && node(doc, params)->kind != NNH_JSON_OBJECT)
        return fail(req, "wrongType", "params", "params must be an object");
    req->params = params;
    if (check_members(req, req->method->fields, params, req->method->name)) return -1;
    return 0;
}

int nnh_param_node(const nnh_request *req, const char *name)
{
    return req->params < 0 ? -1 : nnh_json_member(req->doc, req->params, name);
}

const char *nnh_param_str(const nnh_request *req, const char *name)
{
    int v = nnh_param_node(req, name);
    return v < 0 ? NULL : node(req->doc, v)->str;
}

long long nnh_param_int(const nnh_request *req, const char *name, long long dflt)
{
    int v = nnh_param_node(req, name);
    return v < 0 ? dflt : (long long) node(req->doc, v)->int_val;
}

int nnh_param_bool(const nnh_request *req, const char *name, int dflt)
{
    int v = nnh_param_node(req, name);
    return v < 0 ? dflt : node(req->doc, v)->bool_val;
}

static const char *type_name(enum field_type t)
{
    switch (t) {
    case F_STR: return "string";
    case F_TOKEN: return "token";
    case F_INT: return "integer";
    case F_BOOL: return "boolean";
    case F_ENUM: return "enum";
    case F_ANSWER: return "answer";
    case F_ENUM_LIST: return "enumList";
    case F_STR_LIST: return "stringList";
    case F_OBJECT: return "object";
    }
    return "?";
}

/* A field list as protocol.describe's params array (an object's members
 * nested as its own params). */
static void write_params(nnh_buf *b, const struct nnh_field *fields)
{
    const struct nnh_field *f;
    nnh_buf_char(b, '[');
    for (f = fields; f->name; f++) {
        if (f != fields) nnh_buf_char(b, ',');
        nnh_buf_cstr(b, "{\"name\":");
        nnh_buf_jstr(b, f->name);
        nnh_buf_cstr(b, ",\"type\":");
        nnh_buf_jstr(b, type_name(f->type));
        nnh_buf_cstr(b, f->required ? ",\"required\":true" : ",\"required\":false");
        if (f->type == F_INT || f->type == F_STR || f->type == F_TOKEN || f->type == F_STR_LIST) {
            nnh_buf_cstr(b, f->type == F_INT ? ",\"minimum\":" : ",\"minBytes\":");
            nnh_buf_int(b, f->min);
            nnh_buf_cstr(b, f->type == F_INT ? ",\"maximum\":" : ",\"maxBytes\":");
            nnh_buf_int(b, f->max);
        }
        if (f->values) {
            int v, n = value_count(f);
            nnh_buf_cstr(b, ",\"values\":[");
            for (v = 0; v < n; v++) {
                if (v) nnh_buf_char(b, ',');
                nnh_buf_jstr(b, f->values[v]);
            }
            nnh_buf_char(b, ']');
        }
        if (f->fields) {
            nnh_buf_cstr(b, ",\"params\":");
            write_params(b, f->fields);
        }
        nnh_buf_char(b, '}');
    }
    nnh_buf_char(b, ']');
}

/* protocol.describe: the method catalog, generated from the same table,
 * and every word list of the protocol (nnh_vocabulary.h). */
void nnh_describe_write(nnh_buf *b)
{
    int i;
    nnh_buf_cstr(b, "{\"version\":1,\"protocol\":{\"name\":\"nethack-semantic\",\"version\":1,"
                    "\"engine\":\"NetHack 3.6.7\",\"determinismProfile\":1,"
                    "\"worldEncoding\":\"rows-v1\",\"maxRequestBytes\":4096},"
                    /* what PROTOCOL.md promises beyond the method list */
                    "\"capabilities\":{\"encyclopedia\":\"session.lookup\","
                    "\"knowledge\":[\"spells\",\"skills\",\"levels\",\"conduct\",\"achievements\"],"
                    "\"automaticPickup\":[\"itemTypes\",\"arrows\",\"leaveCorpses\",\"leaveKnownCursed\","
                    "\"lootPatterns\",\"ignorePatterns\"],"
                    "\"events\":");
    nnh_words_write(b, nnh_event_type_names);
    nnh_buf_cstr(b, ",\"statuses\":");
    nnh_words_write(b, nnh_status_names);
    nnh_buf_cstr(b, "},\"vocabulary\":");
    nnh_vocabulary_write(b);
    nnh_buf_cstr(b, ",\"methods\":[");
    for (i = 0; i < N_METHODS; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_cstr(b, "{\"name\":");
        nnh_buf_jstr(b, methods[i].name);
        nnh_buf_cstr(b, ",\"class\":");
        nnh_buf_jstr(b, methods[i].klass == NNH_LIFECYCLE ? "lifecycle"
                        : methods[i].klass == NNH_GAMEPLAY ? "gameplay" : "continuation");
        nnh_buf_cstr(b, ",\"summary\":");
        nnh_buf_jstr(b, methods[i].summary);
        nnh_buf_cstr(b, ",\"params\":");
        write_params(b, methods[i].fields);
        nnh_buf_char(b, '}');
    }
    nnh_buf_cstr(b, "]}");
}
