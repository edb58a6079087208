/* nnh_vocabulary.c - directions and decision kinds, each written once.
 *
 * Plain data with no NetHack dependency, so the request validator (and
 * its fuzz harness) can use it without the game. */
#include <string.h>
#include "nnh_vocabulary.h"

static const char *const decision_kinds[NNH_BOUNDARY_KINDS] = {
    "command", "confirmation", "choice", "text", "direction", "item", "position" };

const char *nnh_decision_kind_name(enum nnh_boundary kind)
{
    return decision_kinds[kind];
}

int nnh_decision_kind_named(const char *name)
{
    int i;
    for (i = NNH_AT_CONFIRMATION; i < NNH_BOUNDARY_KINDS; i++)
        if (!strcmp(decision_kinds[i], name)) return i;
    return -1;
}

const char *const nnh_slot_names[NNH_SLOT_COUNT + 1] = { "shirt", "bodyArmor", "cloak",
    "helmet", "gloves", "boots", "shield", "leftRing", "rightRing", "amulet", "eyewear", NULL };

const char *const nnh_pickup_type_names[NNH_PICKUP_TYPES + 1] = { "gold", "food", "potions",
    "scrolls", "weapons", "armor", "rings", "amulets", "tools", "spellbooks", "wands", "gems",
    "rocks", "balls", "chains", NULL };

const char *const nnh_direction_names[NNH_DIRECTIONS + 1] = {
    "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
    "self", "up", "down", NULL };

/* NetHack's keys, in the order of nnh_direction_names (number_pad off). */
static const char direction_keys[NNH_DIRECTIONS] = {
    'k', 'j', 'l', 'h', 'u', 'y', 'n', 'b', '.', '<', '>' };

int nnh_direction_index(const char *name)
{
    int i;
    for (i = 0; i < NNH_DIRECTIONS; i++)
        if (!strcmp(nnh_direction_names[i], name)) return i;
    return -1;
}

int nnh_direction_key(const char *name, int allow_extra)
{
    int i = nnh_direction_index(name);
    if (i < 0 || (i >= NNH_COMPASS_DIRECTIONS && !allow_extra)) return 0;
    return direction_keys[i];
}
