/* proto_translate.c - turning validated requests into NetHack input.
 *
 * A gameplay request becomes a short sequence of keys (port_keys.c), a
 * decision answer becomes keys or a pending menu/text/position answer
 * (nnh.pending), and a cancel becomes the prompt's own ESC. Checks that
 * need game state (item IDs, choice IDs, counts) happen here, before
 * anything is queued; a refusal leaves the queue and pending answers empty.
 */
#include "hack.h"
#include "func_tab.h"
#include "nnh_state.h"
#include "item_ids.h"
#include "proto_request.h"
#include "proto_translate.h"
#include "item_verbs.h"
#include "nnh_knowledge.h"
#include <ctype.h>

/* Record why a request is refused; nothing has been queued. Returns -1. */
static int refuse(nnh_rejection *why, const char *code, const char *field, const char *message)
{
    why->code = code;
    why->field = field;
    why->message = message;
    return -1;
}

static struct obj *item_by_id(const char *id)
{
    unsigned o_id;
    struct obj *o;
    if (!nnh_item_lookup(id, &o_id)) return NULL;
    for (o = invent; o; o = o->nobj)
        if (o->o_id == o_id) return o;
    return NULL;
}

/* debug.wizard's commands and their wizard-mode keys. */
static int wizard_command_key(const char *command)
{
    static const struct { const char *name; int key; } commands[] = {
        { "wish", NNH_CTRL('w') }, { "teleport", NNH_CTRL('t') }, { "map", NNH_CTRL('f') },
        { "identify", NNH_CTRL('i') }, { "levelTeleport", NNH_CTRL('v') },
        { "createMonster", NNH_CTRL('g') } };
    int i;
    for (i = 0; i < (int) SIZE(commands); i++)
        if (!strcmp(commands[i].name, command)) return commands[i].key;
    return 0; /* not reached: validation allows only these */
}

static void push_count(long n)
{
    char digits[16];
    int i;
    if (n <= 1) return;
    Sprintf(digits, "%ld", n);
    for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], NNH_FOR_ANY);
}

int nnh_ext_command_index(const char *name)
{
    int i;
    for (i = 0; extcmdlist[i].ef_txt; i++)
        if (!strcmp(extcmdlist[i].ef_txt, name)) return i;
    return -1;
}

/* Equipment: W/P to wear or put on, T/R to take off or remove; armour
 * goes through W and T, accessories through P and R (NetHack lets either
 * command handle both, but each prompt lists only its own family). A slot
 * is checked against what the player sees before any key is queued. */
static int equipment_command(const nnh_request *req, int wearing, struct obj *obj,
                             nnh_rejection *why)
{
    const char *slot_name = nnh_param_str(req, "slot");
    int slot = slot_name ? nnh_slot_index(slot_name) : -1, armor = 1;
    int targets[NNH_SLOT_COUNT], n, i;
    struct obj *target_item = obj;

    if (obj && wearing) {
        armor = nnh_is_armor_family(obj);
        if (armor < 0)
            return refuse(why, "outOfRange", "itemId", "this item is not armour or an accessory");
        if (slot >= 0) {
            n = nnh_equip_targets(obj, targets);
            for (i = 0; i < n && targets[i] != slot; i++) continue;
            if (i == n)
                return refuse(why, "outOfRange", "slot", "this item cannot go to that slot now");
        }
    } else if (obj) {
        int worn = nnh_worn_slot(obj);
        if (obj == uskin)
            return refuse(why, "outOfRange", "itemId", "this armour is merged into your skin");
        if (worn < 0) return refuse(why, "outOfRange", "itemId", "this item is not worn");
        if (slot >= 0 && slot != worn)
            return refuse(why, "outOfRange", "slot", "this item is not worn in that slot");
        armor = worn < NNH_FIRST_ACCESSORY_SLOT;
    } else if (slot >= 0) {
        armor = slot < NNH_FIRST_ACCESSORY_SLOT;
        if (wearing && nnh_slot_occupant(slot))
            return refuse(why, "outOfRange", "slot", "that slot is occupied");
        if (!wearing && !(target_item = nnh_slot_occupant(slot)))
            return refuse(why, "outOfRange", "slot", "nothing is worn in that slot");
    }
    nnh_keys_push(armor ? req->method->key : req->method->accessory_key, NNH_FOR_ANY);
    if (target_item) nnh_keys_push(target_item->invlet, NNH_FOR_ITEM);
    if (wearing && (slot_name && (!strcmp(slot_name, "leftRing") || !strcmp(slot_name, "rightRing"))))
        nnh_keys_push(slot_name[0] == 'l' ? 'l' : 'r', NNH_FOR_HAND);
    return 0;
}

/* The item verbs with an optional item, bare hands or an aim: drink, wield,
 * quiver, zap, throw, fire. Returns 0, or -1 with *why set. */
static int aimed_item_command(const nnh_request *req, const char *m, struct obj *obj, int aim,
                              nnh_rejection *why)
{
    int hands = nnh_param_bool(req, "hands", 0);
    if (hands && obj) return refuse(why, "outOfRange", "hands", "give itemId or hands, not both");
    if (aim && obj && !strcmp(m, "zap") && nnh_known_nodir_wand(obj))
        return refuse(why, "outOfRange", "direction", "this wand is known to need no direction");
    nnh_keys_push(req->method->key, NNH_FOR_ANY);
    if (obj || hands) nnh_keys_push(obj ? obj->invlet : '-', NNH_FOR_ITEM);
    if (aim) nnh_keys_push(aim, NNH_FOR_DIRECTION);
    return 0;
}

/* Queue the keys of a gameplay command. Returns 0, or -1 with *why set
 * (nothing queued). */
int nnh_translate_command(const nnh_request *req, nnh_rejection *why)
{
    const char *m = req->method->name + 5; /* after "game." */
    const char *dir = nnh_param_str(req, "direction");
    const char *item = nnh_param_str(req, "itemId");
    struct obj *obj = NULL;
    int key = dir ? nnh_direction_key(dir, 1) : 0;

    const char *name = nnh_param_str(req, "itemName");

    if (item && name) return refuse(why, "outOfRange", "itemName", "give itemId or itemName, not both");
    if (item && !(obj = item_by_id(item)))
        return refuse(why, "unknownItem", "itemId", "no carried item has this ID");
    if (name) {
        int named = nnh_item_named(name, &obj);
        if (!named) return refuse(why, "unknownItem", "itemName", "no carried item is seen by this name");
        if (named > 1)
            return refuse(why, "ambiguousItem", "itemName", "several carried items go by this name; use itemId");
    }
    nnh.op_requested_turns = 0;
    switch (nnh_translate_manual(req, m, obj, key, why)) {
    case 1: return 0;
    case -1: return -1;
    default: break;
    }
    if (!strcmp(m, "move")) {
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "run")) {
        const char *mode = nnh_param_str(req, "mode");
        int no_pickup = nnh_param_bool(req, "noPickup", 0);
        int normal = !mode || !strcmp(mode, "normal");
        /* NetHack 3.6.7 has one no-pickup run: M + direction (mode 1). */
        if (no_pickup && !normal)
            return refuse(why, "outOfRange", "noPickup",
                          "NetHack 3.6.7 runs without pickup only in mode normal");
        if (no_pickup) {
            nnh_keys_push('M', NNH_FOR_ANY);
            nnh_keys_push(key, NNH_FOR_ANY);
        } else if (normal) {
            nnh_keys_push(toupper(key), NNH_FOR_ANY);
        } else {
            nnh_keys_push(!strcmp(mode, "untilInteresting") ? 'g' : 'G', NNH_FOR_ANY);
            nnh_keys_push(key, NNH_FOR_ANY);
        }
    } else if (!strcmp(m, "moveWithoutAttack") || !strcmp(m, "attack")) {
        /* parse() reads m's and F's direction itself, as part of the command */
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "search") || !strcmp(m, "rest")) {
        long turns = (long) nnh_param_int(req, "turns", 1);
        nnh.op_requested_turns = (int) turns;
        push_count(turns);
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
    } else if (!strcmp(m, "climb")) {
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "drop") || !strcmp(m, "eat") || !strcmp(m, "apply")
               || !strcmp(m, "read")) {
        long qty = (long) nnh_param_int(req, "quantity", 0);
        if (qty && obj && qty > obj->quan)
            return refuse(why, "outOfRange", "quantity", "more than the carried stack");
        if (qty && !obj)
            return refuse(why, "missingField", "itemId", "a quantity needs an itemId");
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
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
    } else if (!strcmp(m, "equip") || !strcmp(m, "remove")) {
        return equipment_command(req, !strcmp(m, "equip"), obj, why);
    } else if (!strcmp(m, "drink") || !strcmp(m, "wield") || !strcmp(m, "quiver")
               || !strcmp(m, "zap") || !strcmp(m, "throw") || !strcmp(m, "fire")) {
        return aimed_item_command(req, m, obj, key, why);
    } else if (!strcmp(m, "open") || !strcmp(m, "close") || !strcmp(m, "kick")) {
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
        if (key) nnh_keys_push(key, NNH_FOR_DIRECTION);
    } else if (req->method->extended) { /* twoWeapon, pray, quit */
        nnh.pending.ext_command = nnh_ext_command_index(req->method->extended);
        nnh_keys_push('#', NNH_FOR_ANY);
    } else if (req->method->key) { /* a command key alone: wait, pickup, swap */
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
    } else if (!strcmp(req->method->name, "debug.wizard")) {
        const char *c = nnh_param_str(req, "command");
        if (!wizard)
            return refuse(why, "notWizard", "command", "only wizard-mode fixture sessions accept debug commands");
        nnh_keys_push(wizard_command_key(c), NNH_FOR_ANY);
    }
    return 0;
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
        return refuse(why, "wrongAnswerKind", "answer", "the answer kind does not match the standing decision");
    switch (d->kind) {
    case NNH_AT_CONFIRMATION:
        nnh_keys_push(nnh_json_node_at(doc, nnh_json_member(doc, a, "confirm"))->bool_val ? 'y' : 'n',
                      NNH_FOR_ANY);
        break;
    case NNH_AT_CHOICE: {
        int choose = nnh_json_member(doc, a, "choose"), c, n = 0;
        if (!option_ids_valid(req, choose))
            return refuse(why, "unknownChoice", "choose", "a choice ID is not offered by this decision");
        if (!d->is_menu || d->menu_how == PICK_ONE) {
            if (nnh_json_node_at(doc, choose)->child_count != 1)
                return refuse(why, "outOfRange", "choose", "this decision takes exactly one choice");
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
                return refuse(why, "outOfRange", "text", "this prompt takes exactly one character");
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
                return refuse(why, "unknownItem", "item", "no carried item has this ID");
        } else if (!nnh_letters_hands(d->item_letters)) {
            return refuse(why, "outOfRange", "hands", "this question does not offer hands");
        }
        if (qty >= 0) {
            long q = (long) nnh_json_node_at(doc, qty)->int_val;
            if (!d->counted)
                return refuse(why, "outOfRange", "quantity", "this question takes no count");
            if (!obj || q > obj->quan)
                return refuse(why, "outOfRange", "quantity", "quantity exceeds the carried stack");
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
        } else if (!strcmp(pn->str, "help")) {
            nnh_keys_push('?', NNH_FOR_ANY);
        } else if (!strcmp(pn->str, "finish")) {
            nnh_keys_push('.', NNH_FOR_ANY);
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

