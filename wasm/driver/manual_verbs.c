/* manual_verbs.c - the manual interactions, containers, spells and skills
 * as NetHack commands (see nnh_knowledge.h).
 *
 *   chat    #chat [direction]         pay     p
 *   offer   #offer [item]             dip     #dip [item]
 *   rub     #rub [item]               invoke  #invoke [item]
 *   engrave E [item | - for fingers] [text]
 *   loot    #loot                     force   #force
 *   cast    Z [the spell's menu line] [direction]
 *   enhance #enhance
 *   configurePickup  no key: NetHack's pickup options change (pickup_config.c)
 *
 * An item argument answers only the command's first item question, a
 * direction only its first direction question; everything NetHack asks
 * besides (a floor corpse to offer, what to dip into, "Do you want to add
 * to the current engraving?", the container menu) is a decision. An
 * engraving's text and a spell's menu line are handed to the port as
 * pending answers for this command only (the boundary drops them at the
 * next command prompt). Refusals here happen before any key is queued,
 * and only for what the player can see: an unknown spell name, a loot or
 * force with no container on the hero's square. */
#include "hack.h"
#include "nnh_state.h"
#include "nnh_knowledge.h"
#include "pickup_config.h"

static int refuse(nnh_rejection *why, const char *code, const char *field, const char *message)
{
    why->code = code;
    why->field = field;
    why->message = message;
    return -1;
}

/* Type the method's extended command (the method table's column). */
static void extended(const nnh_request *req)
{
    nnh.pending.ext_command = nnh_ext_command_index(req->method->extended);
    nnh_keys_push('#', NNH_FOR_ANY);
}

/* 1 when the hero's square holds a container the hero has seen there:
 * the square's remembered object is one, or one lies in the pile the hero
 * stands on while able to see or feel it (NetHack lists it on arrival). */
static int container_here(void)
{
    struct obj *o;
    for (o = level.objects[u.ux][u.uy]; o; o = o->nexthere)
        if (Is_container(o) && o->dknown) return 1;
    return 0;
}

static int with_item(const nnh_request *req, struct obj *obj)
{
    extended(req);
    if (obj) nnh_keys_push(obj->invlet, NNH_FOR_ITEM);
    return 1;
}

static int engrave(const nnh_request *req, struct obj *obj, nnh_rejection *why)
{
    const char *text = nnh_param_str(req, "text");
    int hands = nnh_param_bool(req, "hands", 0);
    if (hands && obj) return refuse(why, "outOfRange", "hands", "give itemId or hands, not both");
    nnh_keys_push(req->method->key, NNH_FOR_ANY);
    if (obj || hands) nnh_keys_push(obj ? obj->invlet : '-', NNH_FOR_ITEM);
    if (text) {
        Strcpy(nnh.pending.text, text);
        nnh.pending.have_text = 1;
    }
    return 1;
}

static int cast(const nnh_request *req, int key, nnh_rejection *why)
{
    const char *spell = nnh_param_str(req, "spell");
    int index = spell ? nnh_spell_index(spell) : -1;
    if (spell && index < 0) return refuse(why, "unknownSpell", "spell", "you know no spell by this name");
    nnh_keys_push(req->method->key, NNH_FOR_ANY);
    if (index >= 0) {
        /* the spell menu lists the known spells in order, one selectable
           line each: the spell's line is the index-th choice */
        nnh.pending.menu_ids[0] = index;
        nnh.pending.menu_qty[0] = -1;
        nnh.pending.menu_count = 1;
        nnh.pending.have_menu = 1;
    }
    if (key) nnh_keys_push(key, NNH_FOR_DIRECTION);
    return 1;
}

int nnh_translate_manual(const nnh_request *req, const char *m, struct obj *obj, int key,
                         nnh_rejection *why)
{
    if (!strcmp(m, "chat")) {
        extended(req);
        if (key) nnh_keys_push(key, NNH_FOR_DIRECTION);
        return 1;
    }
    if (!strcmp(m, "pay")) {
        nnh_keys_push(req->method->key, NNH_FOR_ANY);
        return 1;
    }
    if (!strcmp(m, "offer") || !strcmp(m, "dip") || !strcmp(m, "rub") || !strcmp(m, "invoke"))
        return with_item(req, obj);
    if (!strcmp(m, "engrave")) return engrave(req, obj, why);
    if (!strcmp(m, "loot") || !strcmp(m, "force")) {
        if (!container_here())
            return refuse(why, "noContainer", NULL, "you see no container here");
        extended(req);
        return 1;
    }
    if (!strcmp(m, "cast")) return cast(req, key, why);
    if (!strcmp(m, "configurePickup")) {
        nnh_pickup_configure(req); /* no key: the next command prompt answers */
        return 1;
    }
    if (!strcmp(m, "enhance")) {
        extended(req);
        return 1;
    }
    return 0;
}
