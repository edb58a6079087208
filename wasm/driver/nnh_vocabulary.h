/* nnh_vocabulary.h - the protocol's words that several modules share:
 * directions, decision kinds, equipment slots and pickup item types, each
 * written once (nnh_vocabulary.c).
 *
 * The Python package holds the same words in its own single table and a
 * test compares it with protocol.describe, which is generated from these. */
#ifndef NNH_VOCABULARY_H
#define NNH_VOCABULARY_H

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
extern const char *const nnh_slot_names[NNH_SLOT_COUNT + 1];

/* Automatic pickup's item types, in NetHack's class order, NULL-terminated:
 * the words of itemTypes. */
#define NNH_PICKUP_TYPES 15
extern const char *const nnh_pickup_type_names[NNH_PICKUP_TYPES + 1];

#endif
