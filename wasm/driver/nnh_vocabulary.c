/* nnh_vocabulary.c - the protocol's word lists, each written once, and
 * protocol.describe's `vocabulary` object built from them.
 *
 * Plain data with no NetHack dependency, so the request validator (and
 * its fuzz harness) can use it without the game. */
#include <string.h>
#include "nnh_vocabulary.h"

static const char *const decision_kinds[NNH_BOUNDARY_KINDS + 1] = {
    "command", "confirmation", "choice", "text", "direction", "item", "position", NULL };

const char *nnh_decision_kind_name(enum nnh_boundary kind)
{
    return decision_kinds[kind];
}

int nnh_decision_kind_named(const char *name)
{
    int i = nnh_word_index(decision_kinds, name);
    return i == NNH_AT_COMMAND ? -1 : i;
}

int nnh_word_index(const char *const *words, const char *word)
{
    int i;
    for (i = 0; words[i]; i++)
        if (!strcmp(words[i], word)) return i;
    return -1;
}

const char *const nnh_slot_names[NNH_SLOT_COUNT + 1] = { "shirt", "bodyArmor", "cloak",
    "helmet", "gloves", "boots", "shield", "leftRing", "rightRing", "amulet", "eyewear", NULL };

const char *const nnh_pickup_type_names[NNH_PICKUP_TYPES + 1] = { "gold", "food", "potions",
    "scrolls", "weapons", "armor", "rings", "amulets", "tools", "spellbooks", "wands", "gems",
    "rocks", "balls", "chains", NULL };

const char *const nnh_run_mode_names[NNH_RUN_MODES + 1] = { "normal", "untilInteresting",
    "pastBranches", NULL };

const char *const nnh_category_names[NNH_CATEGORIES + 1] = { "weapon", "armor", "ring", "amulet",
    "tool", "food", "potion", "scroll", "spellbook", "wand", "gold", "gem", "rock", "ball", "chain",
    "venom", "other", NULL };

const char *const nnh_hunger_names[NNH_HUNGER_STATES + 2] = { "satiated", "not_hungry", "hungry",
    "weak", "fainting", "fainted", "starved", "unknown", NULL };

const char *const nnh_burden_names[NNH_BURDEN_STATES + 2] = { "unencumbered", "burdened",
    "stressed", "strained", "overtaxed", "overloaded", "unknown", NULL };

const char *const nnh_end_reason_names[NNH_END_REASONS + 2] = { "died", "choked", "poisoned",
    "starved", "drowned", "burned", "dissolved", "crushed", "stoned", "slimed", "genocided",
    "panicked", "trickery", "quit", "escaped", "ascended", "unknown", NULL };

const char *const nnh_status_names[NNH_STATUSES + 1] = { "completed", "decision", "blocked",
    "interrupted", "ended", NULL };

const char *const nnh_event_type_names[NNH_EVENT_TYPES + 1] = { "heard", "passage",
    "creatureDied", "lifeSaved", "attacked", NULL };

const char *const nnh_attack_kind_names[NNH_ATTACK_KINDS + 1] = { "melee", "missile", "launched", NULL };

const char *const nnh_attitude_names[NNH_ATTITUDES + 1] = { "hostile", "peaceful", "tame", NULL };

const char *const nnh_select_names[NNH_SELECTS + 1] = { "one", "any", NULL };

const char *const nnh_position_word_names[3] = { "help", "finish", NULL };

const char *const nnh_role_names[] = { "archeologist", "barbarian", "caveman", "healer",
    "knight", "monk", "priest", "rogue", "ranger", "samurai", "tourist", "valkyrie",
    "wizard", NULL };
const char *const nnh_race_names[] = { "human", "elf", "dwarf", "gnome", "orc", NULL };
const char *const nnh_gender_names[] = { "male", "female", NULL };
const char *const nnh_alignment_names[] = { "lawful", "neutral", "chaotic", NULL };

const char *const nnh_wizard_command_names[NNH_WIZARD_COMMANDS + 1] = { "wish", "teleport", "map",
    "identify", "levelTeleport", "createMonster", NULL };

const char *const nnh_direction_names[NNH_DIRECTIONS + 1] = {
    "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
    "self", "up", "down", NULL };

/* NetHack's keys, in the order of nnh_direction_names (number_pad off). */
static const char direction_keys[NNH_DIRECTIONS] = {
    'k', 'j', 'l', 'h', 'u', 'y', 'n', 'b', '.', '<', '>' };

/* The compass words' map steps (NetHack's xdir/ydir for the same keys). */
static const signed char compass_dx[NNH_COMPASS_DIRECTIONS] = { 0, 0, 1, -1, 1, -1, 1, -1 };
static const signed char compass_dy[NNH_COMPASS_DIRECTIONS] = { -1, 1, 0, 0, -1, -1, 1, 1 };

int nnh_direction_index(const char *name)
{
    return nnh_word_index(nnh_direction_names, name);
}

int nnh_direction_key(const char *name, int allow_extra)
{
    int i = nnh_direction_index(name);
    if (i < 0 || (i >= NNH_COMPASS_DIRECTIONS && !allow_extra)) return 0;
    return direction_keys[i];
}

void nnh_words_write(nnh_buf *b, const char *const *words)
{
    int i;
    nnh_buf_char(b, '[');
    for (i = 0; words[i]; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_jstr(b, words[i]);
    }
    nnh_buf_char(b, ']');
}

/* "name":[words...] */
static void write_words(nnh_buf *b, const char *name, const char *const *words)
{
    nnh_buf_key(b, name);
    nnh_words_write(b, words);
}

void nnh_vocabulary_write(nnh_buf *b)
{
    int i;
    nnh_buf_char(b, '{');
    write_words(b, "decisionKinds", decision_kinds + NNH_AT_CONFIRMATION);
    nnh_buf_char(b, ',');
    write_words(b, "directions", nnh_direction_names);
    nnh_buf_cstr(b, ",\"compass\":[");
    for (i = 0; i < NNH_COMPASS_DIRECTIONS; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_cstr(b, "{\"name\":");
        nnh_buf_jstr(b, nnh_direction_names[i]);
        nnh_buf_member_int(b, "dx", compass_dx[i]);
        nnh_buf_member_int(b, "dy", compass_dy[i]);
        nnh_buf_char(b, '}');
    }
    nnh_buf_cstr(b, "],");
    write_words(b, "vertical", nnh_direction_names + NNH_DIRECTION_UP);
    nnh_buf_char(b, ',');
    write_words(b, "runModes", nnh_run_mode_names);
    nnh_buf_char(b, ',');
    write_words(b, "equipmentSlots", nnh_slot_names);
    nnh_buf_char(b, ',');
    write_words(b, "pickupTypes", nnh_pickup_type_names);
    nnh_buf_char(b, ',');
    write_words(b, "itemCategories", nnh_category_names);
    nnh_buf_char(b, ',');
    write_words(b, "hunger", nnh_hunger_names);
    nnh_buf_char(b, ',');
    write_words(b, "burden", nnh_burden_names);
    nnh_buf_char(b, ',');
    write_words(b, "endReasons", nnh_end_reason_names);
    nnh_buf_char(b, ',');
    write_words(b, "statuses", nnh_status_names);
    nnh_buf_char(b, ',');
    write_words(b, "events", nnh_event_type_names);
    nnh_buf_char(b, ',');
    write_words(b, "attackKinds", nnh_attack_kind_names);
    nnh_buf_char(b, ',');
    write_words(b, "attitudes", nnh_attitude_names);
    nnh_buf_char(b, ',');
    write_words(b, "choiceSelect", nnh_select_names);
    nnh_buf_char(b, ',');
    write_words(b, "positionWords", nnh_position_word_names);
    nnh_buf_char(b, ',');
    write_words(b, "roles", nnh_role_names);
    nnh_buf_char(b, ',');
    write_words(b, "races", nnh_race_names);
    nnh_buf_char(b, ',');
    write_words(b, "genders", nnh_gender_names);
    nnh_buf_char(b, ',');
    write_words(b, "alignments", nnh_alignment_names);
    nnh_buf_char(b, ',');
    write_words(b, "wizardCommands", nnh_wizard_command_names);
    nnh_buf_char(b, '}');
}
