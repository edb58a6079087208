/* nnh_vocabulary.h - every word list of the protocol, each written once
 * (nnh_vocabulary.c): directions, decision kinds and their words, run
 * modes, equipment slots, pickup item types, item categories, hunger,
 * burden, how a game ends, outcome statuses, event types, attitudes, the
 * character choices and the wizard-mode commands.
 *
 * The request validator (proto_request.c) takes its enums from here, the
 * response writers (obs_*.c, port_map.c, proto_boundary.c) their words, and
 * protocol.describe publishes all of them as its `vocabulary` object
 * (nnh_vocabulary_write). The build exports that object as vocabulary.json;
 * Python and JavaScript read or check their copies against it. Plain data
 * with no NetHack dependency, so the validator's fuzz harness links it
 * without the game. */
#ifndef NNH_VOCABULARY_H
#define NNH_VOCABULARY_H

#include "json_write.h"

/* What the engine is waiting for at an input boundary; every kind but
 * NNH_AT_COMMAND is published as a decision of that kind. */
enum nnh_boundary {
    NNH_AT_COMMAND = 0,   /* ready: the next command */
    NNH_AT_CONFIRMATION,  /* yes/no question */
    NNH_AT_CHOICE,        /* single-letter choice or menu */
    NNH_AT_TEXT,          /* getlin, or an unclassified key prompt */
    NNH_AT_DIRECTION,     /* getdir */
    NNH_AT_ITEM,          /* getobj */
    NNH_AT_POSITION       /* getpos */
};
#define NNH_BOUNDARY_KINDS (NNH_AT_POSITION + 1)

/* The kind's protocol name ("confirmation", ...; "command" for the
 * command boundary). Can't fail for a valid kind. */
const char *nnh_decision_kind_name(enum nnh_boundary kind);

/* The decision kind a name stands for, or -1 (also for "command", which
 * is no decision). */
int nnh_decision_kind_named(const char *name);

/* The index of `word` in a NULL-terminated word list, or -1. */
int nnh_word_index(const char *const *words, const char *word);

/* Directions in one order: the eight compass words first, then "self",
 * "up" and "down". nnh_direction_names[NNH_DIRECTIONS] is NULL, so any
 * prefix or run of it is a word list: the compass is the first
 * NNH_COMPASS_DIRECTIONS, vertical aims the two from NNH_DIRECTION_UP. */
#define NNH_COMPASS_DIRECTIONS 8
#define NNH_DIRECTION_SELF 8
#define NNH_DIRECTION_UP 9
#define NNH_DIRECTIONS 11
extern const char *const nnh_direction_names[NNH_DIRECTIONS + 1];

/* The index of a direction word in nnh_direction_names, or -1. */
int nnh_direction_index(const char *name);

/* Direction word -> NetHack key (vi keys, '.', '<', '>'), or 0 when the
 * word is unknown, or is self/up/down and allow_extra is 0. */
int nnh_direction_key(const char *name, int allow_extra);

/* Equipment slots by protocol name, in slot order, NULL-terminated: the
 * words of game.equip's `slot`. The slots from NNH_FIRST_ACCESSORY_SLOT
 * (leftRing) on take accessories, the ones before it armour. */
#define NNH_SLOT_COUNT 11
#define NNH_FIRST_ACCESSORY_SLOT 7
#define NNH_SLOT_LEFT_RING 7
#define NNH_SLOT_RIGHT_RING 8
extern const char *const nnh_slot_names[NNH_SLOT_COUNT + 1];

/* Automatic pickup's item types, in NetHack's class order, NULL-terminated:
 * the words of itemTypes. */
#define NNH_PICKUP_TYPES 15
extern const char *const nnh_pickup_type_names[NNH_PICKUP_TYPES + 1];

/* game.run's modes, NULL-terminated: ordinary (Shift+direction), g, G. */
enum nnh_run_mode { NNH_RUN_NORMAL = 0, NNH_RUN_UNTIL_INTERESTING, NNH_RUN_PAST_BRANCHES, NNH_RUN_MODES };
extern const char *const nnh_run_mode_names[NNH_RUN_MODES + 1];

/* An item's category (its displayed class), NULL-terminated; the last,
 * "other", stands for any class NetHack adds beyond these. */
enum nnh_category {
    NNH_CAT_WEAPON = 0, NNH_CAT_ARMOR, NNH_CAT_RING, NNH_CAT_AMULET, NNH_CAT_TOOL, NNH_CAT_FOOD,
    NNH_CAT_POTION, NNH_CAT_SCROLL, NNH_CAT_SPELLBOOK, NNH_CAT_WAND, NNH_CAT_GOLD, NNH_CAT_GEM,
    NNH_CAT_ROCK, NNH_CAT_BALL, NNH_CAT_CHAIN, NNH_CAT_VENOM, NNH_CAT_OTHER, NNH_CATEGORIES
};
extern const char *const nnh_category_names[NNH_CATEGORIES + 1];

/* Hunger, indexed by NetHack's u.uhs (SATIATED 0 .. STARVED 6), and
 * burden, indexed by near_capacity() (UNENCUMBERED 0 .. OVERLOADED 5);
 * each list ends with "unknown" for a value outside NetHack's range, then
 * NULL. obs_build.c checks the index ranges against hack.h at compile time. */
#define NNH_HUNGER_STATES 7
#define NNH_BURDEN_STATES 6
extern const char *const nnh_hunger_names[NNH_HUNGER_STATES + 2];
extern const char *const nnh_burden_names[NNH_BURDEN_STATES + 2];

/* How a game ended, indexed by NetHack's death code (DIED 0 .. ASCENDED 15),
 * then "unknown", then NULL. */
#define NNH_END_REASONS 16
extern const char *const nnh_end_reason_names[NNH_END_REASONS + 2];

/* outcome.status, NULL-terminated. */
enum nnh_status { NNH_STATUS_COMPLETED = 0, NNH_STATUS_DECISION, NNH_STATUS_BLOCKED,
                  NNH_STATUS_INTERRUPTED, NNH_STATUS_ENDED, NNH_STATUSES };
extern const char *const nnh_status_names[NNH_STATUSES + 1];

/* Event types, NULL-terminated (attacked: obs_hazards.c). */
#define NNH_EVENT_TYPES 5
extern const char *const nnh_event_type_names[NNH_EVENT_TYPES + 1];

/* What an attacked event says attacked the hero, indexed by obs_hazards.h's
 * enum nnh_attack_kind, NULL-terminated. */
#define NNH_ATTACK_KINDS 3
extern const char *const nnh_attack_kind_names[NNH_ATTACK_KINDS + 1];

/* A seen creature's attitude, NULL-terminated. */
enum nnh_attitude { NNH_HOSTILE = 0, NNH_PEACEFUL, NNH_TAME, NNH_ATTITUDES };
extern const char *const nnh_attitude_names[NNH_ATTITUDES + 1];

/* A choice decision's `select`: one option, or any number of them. */
enum nnh_select { NNH_SELECT_ONE = 0, NNH_SELECT_ANY, NNH_SELECTS };
extern const char *const nnh_select_names[NNH_SELECTS + 1];

/* A position answer's words besides the compass: the help and finish keys. */
extern const char *const nnh_position_word_names[3];

/* session.create's character choices, and debug.wizard's commands; each
 * NULL-terminated. */
extern const char *const nnh_role_names[];
extern const char *const nnh_race_names[];
extern const char *const nnh_gender_names[];
extern const char *const nnh_alignment_names[];
#define NNH_WIZARD_COMMANDS 6
extern const char *const nnh_wizard_command_names[NNH_WIZARD_COMMANDS + 1];

/* A NULL-terminated word list as a JSON array. Can't fail (an exhausted
 * buffer records oom itself). */
void nnh_words_write(nnh_buf *b, const char *const *words);

/* protocol.describe's `vocabulary` object: every list above by name, and
 * the compass with each word's map step ({"name","dx","dy"}, y growing
 * southward). Can't fail (an exhausted buffer records oom itself). */
void nnh_vocabulary_write(nnh_buf *b);

#endif
