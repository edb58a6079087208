/* manual_verbs.c - the manual interactions, containers, spells and skills
 * as NetHack commands (manual_verbs.h; rows of proto_translate.c's table).
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
 * force with no container on the hero's square. pay and enhance are plain
 * key and extended-command rows (proto_translate.c). */
#include "hack.h"
#include "nnh_state.h"
#include "nnh_knowledge.h"
#include "pickup_config.h"
#include "port_keys.h"
#include "manual_verbs.h"

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

int nnh_translate_chat(const nnh_command_args *args, nnh_rejection *why)
{
    nnh_push_extended(args->command);
    if (args->aim) nnh_keys_push(args->aim, NNH_FOR_DIRECTION);
    return 0;
}

int nnh_translate_with_item(const nnh_command_args *args, nnh_rejection *why)
{
    nnh_push_extended(args->command);
    if (args->obj) nnh_keys_push(args->obj->invlet, NNH_FOR_ITEM);
    return 0;
}

int nnh_translate_engrave(const nnh_command_args *args, nnh_rejection *why)
{
    const char *text = nnh_param_str(args->req, "text");
    int hands = nnh_param_bool(args->req, "hands", 0);
    struct obj *obj = args->obj;
    if (hands && obj) return nnh_refuse(why, "outOfRange", "hands", "give itemId or hands, not both");
    nnh_keys_push(args->command->key, NNH_FOR_ANY);
    if (obj || hands) nnh_keys_push(obj ? obj->invlet : '-', NNH_FOR_ITEM);
    if (text) {
        Strcpy(nnh.pending.text, text);
        nnh.pending.have_text = 1;
    }
    return 0;
}

int nnh_translate_container(const nnh_command_args *args, nnh_rejection *why)
{
    if (!container_here()) return nnh_refuse(why, "noContainer", NULL, "you see no container here");
    nnh_push_extended(args->command);
    return 0;
}

int nnh_translate_cast(const nnh_command_args *args, nnh_rejection *why)
{
    const char *spell = nnh_param_str(args->req, "spell");
    int index = spell ? nnh_spell_index(spell) : -1;
    if (spell && index < 0) return nnh_refuse(why, "unknownSpell", "spell", "you know no spell by this name");
    nnh_keys_push(args->command->key, NNH_FOR_ANY);
    if (index >= 0) {
        /* the spell menu lists the known spells in order, one selectable
           line each: the spell's line is the index-th choice */
        nnh.pending.menu_ids[0] = index;
        nnh.pending.menu_qty[0] = -1;
        nnh.pending.menu_count = 1;
        nnh.pending.have_menu = 1;
    }
    if (args->aim) nnh_keys_push(args->aim, NNH_FOR_DIRECTION);
    return 0;
}

int nnh_translate_configure_pickup(const nnh_command_args *args, nnh_rejection *why)
{
    nnh_pickup_configure(args->req); /* no key: the next command prompt answers */
    return 0;
}
