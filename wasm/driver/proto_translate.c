/* proto_translate.c - turning validated requests into NetHack input.
 *
 * A gameplay request becomes a short sequence of keys (port_keys.c), a
 * decision answer becomes keys or a pending menu/text/position answer
 * (nnh.pending), and a cancel becomes the prompt's own ESC. Every gameplay
 * method has one row in the command table below, indexed by its method id:
 * the translator that queues its keys and the keys that translator reads.
 * Checks that need game state (item IDs, choice IDs, counts) happen in the
 * translators, before anything is queued; a refusal leaves the queue and
 * pending answers empty. */
#include "hack.h"
#include "nnh_state.h"
#include "item_ids.h"
#include "item_query.h"
#include "item_verbs.h"
#include "obs_items.h"
#include "port_keys.h"
#include "proto_translate.h"
#include "manual_verbs.h"
#include <ctype.h>

static struct obj *item_by_id(const char *id)
{
    unsigned o_id;
    struct obj *o;
    if (!nnh_item_lookup(id, &o_id)) return NULL;
    for (o = invent; o; o = o->nobj)
        if (o->o_id == o_id) return o;
    return NULL;
}

/* A count typed before a command: digits, each for any prompt. */
static void push_count(long n)
{
    char digits[16];
    int i;
    if (n <= 1) return;
    Sprintf(digits, "%ld", n);
    for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], NNH_FOR_ANY);
}

/* ---- the translators ------------------------------------------------------ */

/* A command key alone (wait, pickup, swap, pay). */
static int key_only(const nnh_command_args *a, nnh_rejection *why)
{
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    return 0;
}

/* An extended command alone (twoWeapon, pray, quit, enhance). */
static int extended_only(const nnh_command_args *a, nnh_rejection *why)
{
    nnh_push_extended(a->command);
    return 0;
}

/* A direction key alone: a step (move), or stairs (climb: < or >). */
static int direction_only(const nnh_command_args *a, nnh_rejection *why)
{
    nnh_keys_push(a->aim, NNH_FOR_ANY);
    return 0;
}

/* m and F: parse() reads the direction itself, as part of the command. */
static int prefixed_step(const nnh_command_args *a, nnh_rejection *why)
{
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    nnh_keys_push(a->aim, NNH_FOR_ANY);
    return 0;
}

static int run(const nnh_command_args *a, nnh_rejection *why)
{
    const char *mode_name = nnh_param_str(a->req, "mode");
    int mode = mode_name ? nnh_word_index(nnh_run_mode_names, mode_name) : NNH_RUN_NORMAL;
    int no_pickup = nnh_param_bool(a->req, "noPickup", 0);
    /* NetHack 3.6.7 has one no-pickup run: M + direction (mode 1). */
    if (no_pickup && mode != NNH_RUN_NORMAL)
        return nnh_refuse(why, "outOfRange", "noPickup", "NetHack 3.6.7 runs without pickup only in mode normal");
    if (no_pickup) {
        nnh_keys_push('M', NNH_FOR_ANY);
        nnh_keys_push(a->aim, NNH_FOR_ANY);
    } else if (mode == NNH_RUN_NORMAL) {
        nnh_keys_push(toupper(a->aim), NNH_FOR_ANY);
    } else {
        nnh_keys_push(mode == NNH_RUN_UNTIL_INTERESTING ? 'g' : 'G', NNH_FOR_ANY);
        nnh_keys_push(a->aim, NNH_FOR_ANY);
    }
    return 0;
}

/* search and rest, optionally counted. */
static int counted(const nnh_command_args *a, nnh_rejection *why)
{
    long turns = (long) nnh_param_int(a->req, "turns", 1);
    nnh.op_requested_turns = (int) turns;
    push_count(turns);
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    return 0;
}

/* drop, eat, apply, read: the item, optionally part of its stack. */
static int item_command(const nnh_command_args *a, nnh_rejection *why)
{
    long qty = (long) nnh_param_int(a->req, "quantity", 0);
    struct obj *obj = a->obj;
    if (qty && obj && qty > obj->quan)
        return nnh_refuse(why, "outOfRange", "quantity", "more than the carried stack");
    if (qty && !obj) return nnh_refuse(why, "missingField", "itemId", "a quantity needs an itemId");
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    if (obj) {
        if (qty && qty < obj->quan) {
            /* getobj takes the first digit at its item prompt, then
             * get_count() reads the rest as plain keys */
            char digits[16];
            int i;
            Sprintf(digits, "%ld", qty);
            for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], i ? NNH_FOR_ANY : NNH_FOR_ITEM);
            nnh_keys_push(obj->invlet, NNH_FOR_ANY);
        } else {
            nnh_keys_push(obj->invlet, NNH_FOR_ITEM);
        }
    }
    return 0;
}

/* Equipment: W/P to wear or put on, T/R to take off or remove; armour
 * goes through W and T, accessories through P and R (NetHack lets either
 * command handle both, but each prompt lists only its own family). A slot
 * is checked against what the player sees before any key is queued. */
static int equipment_command(const nnh_command_args *a, int wearing, nnh_rejection *why)
{
    const char *slot_name = nnh_param_str(a->req, "slot");
    int slot = slot_name ? nnh_slot_index(slot_name) : -1, armor = 1;
    int targets[NNH_SLOT_COUNT], n, i;
    struct obj *obj = a->obj, *target_item = obj;

    if (obj && wearing) {
        armor = nnh_is_armor_family(obj);
        if (armor < 0)
            return nnh_refuse(why, "outOfRange", "itemId", "this item is not armour or an accessory");
        if (slot >= 0) {
            n = nnh_equip_targets(obj, targets);
            for (i = 0; i < n && targets[i] != slot; i++) continue;
            if (i == n)
                return nnh_refuse(why, "outOfRange", "slot", "this item cannot go to that slot now");
        }
    } else if (obj) {
        int worn = nnh_worn_slot(obj);
        if (obj == uskin)
            return nnh_refuse(why, "outOfRange", "itemId", "this armour is merged into your skin");
        if (worn < 0) return nnh_refuse(why, "outOfRange", "itemId", "this item is not worn");
        if (slot >= 0 && slot != worn)
            return nnh_refuse(why, "outOfRange", "slot", "this item is not worn in that slot");
        armor = worn < NNH_FIRST_ACCESSORY_SLOT;
    } else if (slot >= 0) {
        armor = slot < NNH_FIRST_ACCESSORY_SLOT;
        if (wearing && nnh_slot_occupant(slot))
            return nnh_refuse(why, "outOfRange", "slot", "that slot is occupied");
        if (!wearing && !(target_item = nnh_slot_occupant(slot)))
            return nnh_refuse(why, "outOfRange", "slot", "nothing is worn in that slot");
    }
    nnh_keys_push(armor ? a->command->key : a->command->accessory_key, NNH_FOR_ANY);
    if (target_item) nnh_keys_push(target_item->invlet, NNH_FOR_ITEM);
    if (wearing && (slot == NNH_SLOT_LEFT_RING || slot == NNH_SLOT_RIGHT_RING))
        nnh_keys_push(slot == NNH_SLOT_LEFT_RING ? 'l' : 'r', NNH_FOR_HAND);
    return 0;
}

static int equip(const nnh_command_args *a, nnh_rejection *why)
{
    return equipment_command(a, 1, why);
}

static int remove_worn(const nnh_command_args *a, nnh_rejection *why)
{
    return equipment_command(a, 0, why);
}

/* The item verbs with an optional item, bare hands or an aim: drink, wield,
 * quiver, throw, fire (and zap, below). */
static int aimed_item(const nnh_command_args *a, nnh_rejection *why)
{
    int hands = nnh_param_bool(a->req, "hands", 0);
    if (hands && a->obj) return nnh_refuse(why, "outOfRange", "hands", "give itemId or hands, not both");
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    if (a->obj || hands) nnh_keys_push(a->obj ? a->obj->invlet : '-', NNH_FOR_ITEM);
    if (a->aim) nnh_keys_push(a->aim, NNH_FOR_DIRECTION);
    return 0;
}

static int zap(const nnh_command_args *a, nnh_rejection *why)
{
    if (a->aim && a->obj && nnh_known_nodir_wand(a->obj))
        return nnh_refuse(why, "outOfRange", "direction", "this wand is known to need no direction");
    return aimed_item(a, why);
}

/* open, close, kick: the key, then the direction if given. */
static int door_command(const nnh_command_args *a, nnh_rejection *why)
{
    nnh_keys_push(a->command->key, NNH_FOR_ANY);
    if (a->aim) nnh_keys_push(a->aim, NNH_FOR_DIRECTION);
    return 0;
}

/* debug.wizard's commands, their wizard-mode keys in nnh_wizard_command_names' order. */
static int wizard_command(const nnh_command_args *a, nnh_rejection *why)
{
    static const int keys[NNH_WIZARD_COMMANDS] = { NNH_CTRL('w'), NNH_CTRL('t'), NNH_CTRL('f'),
                                                   NNH_CTRL('i'), NNH_CTRL('v'), NNH_CTRL('g') };
    int command = nnh_word_index(nnh_wizard_command_names, nnh_param_str(a->req, "command"));
    if (!wizard)
        return nnh_refuse(why, "notWizard", "command", "only wizard-mode fixture sessions accept debug commands");
    nnh_keys_push(keys[command], NNH_FOR_ANY); /* validation allows only these words */
    return 0;
}

/* ---- the command table ------------------------------------------------------ */

#define KEY(translate, key) { translate, key, 0, NULL, 0 }
#define STEP(translate, key) { translate, key, 0, NULL, 1 }
#define EXTENDED(translate, name) { translate, 0, 0, name, 0 }

/* One row per gameplay method: the translator, the command key, the
 * accessory's key, the extended command, whether it is a step or a wait.
 * Lifecycle and continuation methods have none (the boundary answers them). */
static const nnh_command commands[NNH_METHOD_COUNT] = {
    [NNH_M_MOVE] = STEP(direction_only, 0),
    [NNH_M_RUN] = STEP(run, 0),
    [NNH_M_MOVE_WITHOUT_ATTACK] = STEP(prefixed_step, 'm'),
    [NNH_M_ATTACK] = STEP(prefixed_step, 'F'),
    [NNH_M_WAIT] = STEP(key_only, '.'),
    [NNH_M_SEARCH] = STEP(counted, 's'),
    [NNH_M_REST] = STEP(counted, '.'),
    [NNH_M_CLIMB] = STEP(direction_only, 0),
    [NNH_M_PICKUP] = KEY(key_only, ','),
    [NNH_M_DROP] = KEY(item_command, 'd'),
    [NNH_M_EAT] = KEY(item_command, 'e'),
    [NNH_M_APPLY] = KEY(item_command, 'a'),
    [NNH_M_READ] = KEY(item_command, 'r'),
    [NNH_M_DRINK] = KEY(aimed_item, 'q'),
    [NNH_M_WIELD] = KEY(aimed_item, 'w'),
    [NNH_M_EQUIP] = { equip, 'W', 'P', NULL, 0 },
    [NNH_M_REMOVE] = { remove_worn, 'T', 'R', NULL, 0 },
    [NNH_M_ZAP] = KEY(zap, 'z'),
    [NNH_M_THROW] = KEY(aimed_item, 't'),
    [NNH_M_FIRE] = KEY(aimed_item, 'f'),
    [NNH_M_QUIVER] = KEY(aimed_item, 'Q'),
    [NNH_M_SWAP] = KEY(key_only, 'x'),
    [NNH_M_TWO_WEAPON] = EXTENDED(extended_only, "twoweapon"),
    [NNH_M_OPEN] = KEY(door_command, 'o'),
    [NNH_M_CLOSE_DOOR] = KEY(door_command, 'c'),
    [NNH_M_KICK] = KEY(door_command, NNH_CTRL('d')),
    [NNH_M_ENGRAVE] = KEY(nnh_translate_engrave, 'E'),
    [NNH_M_CHAT] = EXTENDED(nnh_translate_chat, "chat"),
    [NNH_M_PAY] = KEY(key_only, 'p'),
    [NNH_M_OFFER] = EXTENDED(nnh_translate_with_item, "offer"),
    [NNH_M_DIP] = EXTENDED(nnh_translate_with_item, "dip"),
    [NNH_M_RUB] = EXTENDED(nnh_translate_with_item, "rub"),
    [NNH_M_INVOKE] = EXTENDED(nnh_translate_with_item, "invoke"),
    [NNH_M_LOOT] = EXTENDED(nnh_translate_container, "loot"),
    [NNH_M_FORCE] = EXTENDED(nnh_translate_container, "force"),
    [NNH_M_CAST] = KEY(nnh_translate_cast, 'Z'),
    [NNH_M_ENHANCE] = EXTENDED(extended_only, "enhance"),
    [NNH_M_PRAY] = EXTENDED(extended_only, "pray"),
    [NNH_M_QUIT] = EXTENDED(extended_only, "quit"),
    [NNH_M_CONFIGURE_PICKUP] = KEY(nnh_translate_configure_pickup, 0),
    [NNH_M_WIZARD] = KEY(wizard_command, 0),
};

int nnh_method_moves(const nnh_method *method)
{
    return commands[method->id].movement;
}

/* Queue the keys of a gameplay command. Returns 0, or -1 with *why set
 * (nothing queued). */
int nnh_translate_command(const nnh_request *req, nnh_rejection *why)
{
    const char *dir = nnh_param_str(req, "direction");
    const char *item = nnh_param_str(req, "itemId");
    const char *name = nnh_param_str(req, "itemName");
    nnh_command_args args;

    args.req = req;
    args.command = &commands[req->method->id];
    args.obj = NULL;
    args.aim = dir ? nnh_direction_key(dir, 1) : 0;
    if (item && name) return nnh_refuse(why, "outOfRange", "itemName", "give itemId or itemName, not both");
    if (item && !(args.obj = item_by_id(item)))
        return nnh_refuse(why, "unknownItem", "itemId", "no carried item has this ID");
    if (name) {
        int named = nnh_item_named(name, &args.obj);
        if (!named) return nnh_refuse(why, "unknownItem", "itemName", "no carried item is seen by this name");
        if (named > 1)
            return nnh_refuse(why, "ambiguousItem", "itemName", "several carried items go by this name; use itemId");
    }
    nnh.op_requested_turns = 0;
    return args.command->translate(&args, why);
}

static int option_ids_valid(const nnh_request *req, int choose)
{
    const nnh_json_doc *doc = req->doc;
    int c;
    for (c = nnh_json_node_at(doc, choose)->first_child; c >= 0;
         c = nnh_json_node_at(doc, c)->next_sibling)
        if (nnh_json_node_at(doc, c)->int_val >= nnh.decision.n_options) return 0;
    return 1;
}

/* Turn decision.answer into pending input. Returns 0, or -1 with *why set. */
int nnh_translate_answer(const nnh_request *req, nnh_rejection *why)
{
    const nnh_json_doc *doc = req->doc;
    int a = nnh_param_node(req, "answer");
    const char *kind = nnh_json_node_at(doc, nnh_json_member(doc, a, "kind"))->str;
    nnh_decision *d = &nnh.decision;
    if (nnh_decision_kind_named(kind) != (int) d->kind)
        return nnh_refuse(why, "wrongAnswerKind", "answer", "the answer kind does not match the standing decision");
    switch (d->kind) {
    case NNH_AT_CONFIRMATION:
        nnh_keys_push(nnh_json_node_at(doc, nnh_json_member(doc, a, "confirm"))->bool_val ? 'y' : 'n',
                      NNH_FOR_ANY);
        break;
    case NNH_AT_CHOICE: {
        int choose = nnh_json_member(doc, a, "choose"), c, n = 0;
        if (!option_ids_valid(req, choose))
            return nnh_refuse(why, "unknownChoice", "choose", "a choice ID is not offered by this decision");
        if (!d->is_menu || d->menu_how == PICK_ONE) {
            if (nnh_json_node_at(doc, choose)->child_count != 1)
                return nnh_refuse(why, "outOfRange", "choose", "this decision takes exactly one choice");
        }
        if (!d->is_menu) {
            int id = (int) nnh_json_node_at(doc, nnh_json_node_at(doc, choose)->first_child)->int_val;
            nnh_keys_push(d->options[id].key, NNH_FOR_ANY);
            break;
        }
        for (c = nnh_json_node_at(doc, choose)->first_child; c >= 0;
             c = nnh_json_node_at(doc, c)->next_sibling) {
            nnh.pending.menu_ids[n] = (int) nnh_json_node_at(doc, c)->int_val;
            nnh.pending.menu_qty[n] = -1;
            n++;
        }
        nnh.pending.menu_count = n;
        nnh.pending.menu_cancel = 0;
        nnh.pending.have_menu = 1;
        break;
    }
    case NNH_AT_TEXT: {
        const char *text = nnh_json_node_at(doc, nnh_json_member(doc, a, "text"))->str;
        if (d->key_prompt) {
            if (strlen(text) != 1)
                return nnh_refuse(why, "outOfRange", "text", "this prompt takes exactly one character");
            nnh_keys_push((unsigned char) text[0], NNH_FOR_ANY);
        } else {
            Strcpy(nnh.pending.text, text);
            nnh.pending.have_text = 1;
        }
        break;
    }
    case NNH_AT_DIRECTION:
        nnh_keys_push(nnh_direction_key(nnh_json_node_at(doc, nnh_json_member(doc, a, "direction"))->str, 1),
                      NNH_FOR_ANY);
        break;
    case NNH_AT_ITEM: {
        int item = nnh_json_member(doc, a, "item"), qty = nnh_json_member(doc, a, "quantity");
        struct obj *obj = NULL;
        if (item >= 0) {
            const char *id = nnh_json_node_at(doc, nnh_json_member(doc, item, "id"))->str;
            if (!(obj = item_by_id(id)))
                return nnh_refuse(why, "unknownItem", "item", "no carried item has this ID");
        } else if (!nnh_letters_hands(d->item_letters)) {
            return nnh_refuse(why, "outOfRange", "hands", "this question does not offer hands");
        }
        if (qty >= 0) {
            long q = (long) nnh_json_node_at(doc, qty)->int_val;
            if (!d->counted)
                return nnh_refuse(why, "outOfRange", "quantity", "this question takes no count");
            if (!obj || q > obj->quan)
                return nnh_refuse(why, "outOfRange", "quantity", "quantity exceeds the carried stack");
            if (q < obj->quan) {
                char digits[16];
                int i;
                Sprintf(digits, "%ld", q);
                for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], NNH_FOR_ANY);
            }
        }
        nnh_keys_push(obj ? obj->invlet : '-', NNH_FOR_ANY);
        break;
    }
    case NNH_AT_POSITION: {
        int p = nnh_json_member(doc, a, "position");
        const nnh_json_node *pn = nnh_json_node_at(doc, p);
        if (pn->kind == NNH_JSON_OBJECT) {
            nnh.pending.click_x = (int) nnh_json_node_at(doc, nnh_json_member(doc, p, "x"))->int_val;
            nnh.pending.click_y = (int) nnh_json_node_at(doc, nnh_json_member(doc, p, "y"))->int_val;
            nnh.pending.have_click = 1;
        } else if (nnh_word_index(nnh_position_word_names, pn->str) >= 0) {
            /* help (?) or finish (.), in nnh_position_word_names' order */
            nnh_keys_push(nnh_word_index(nnh_position_word_names, pn->str) ? '.' : '?', NNH_FOR_ANY);
        } else {
            nnh_keys_push(nnh_direction_key(pn->str, 0), NNH_FOR_ANY);
        }
        break;
    }
    case NNH_AT_COMMAND:
        break;
    }
    return 0;
}

void nnh_translate_cancel(void)
{
    if (nnh.decision.is_menu) {
        nnh.pending.menu_cancel = 1;
        nnh.pending.menu_count = 0;
        nnh.pending.have_menu = 1;
    } else if (nnh.decision.kind == NNH_AT_TEXT && !nnh.decision.key_prompt) {
        Strcpy(nnh.pending.text, "\033");
        nnh.pending.have_text = 1;
    } else {
        nnh_keys_push('\033', NNH_FOR_ANY);
    }
}

