/* obs_reuse.h - reuse a response section's text while its inputs are
 * unchanged.
 *
 * Most of a step's response is the inventory and the knowledge object, and
 * most steps change neither: naming every carried item (doname()) and
 * escaping the same few kilobytes again was ~40% of a step. A section
 * gathers a key, the bytes of every input its writer reads (struct copies,
 * strings, computed values), and when the key equals the one of the last
 * write, appends the text that write produced instead of writing again.
 *
 * The key must cover every input: a missed one would publish a stale
 * section. Keys therefore err towards too much (whole structs, pointers):
 * an input that changes without changing the text only costs a rewrite.
 * The sanitized twin (tests/fuzz) and any engine started with
 * NNH_CHECK_REUSE set write the section anyway on every reuse and abort if
 * the texts differ, so a missed input fails the fuzz and engine suites
 * instead of reaching a player. */
#ifndef NNH_OBS_REUSE_H
#define NNH_OBS_REUSE_H

#include "json_write.h"

typedef struct {
    nnh_buf key;      /* inputs gathered for this write, once they differ */
    nnh_buf last_key; /* inputs of the last write */
    /* Inputs are compared with last_key as they are gathered: while they
     * match, key stays empty and `matched` counts the bytes (copying 2-3 KB
     * of item structs per step only to compare them cost more than the
     * compare). At the first difference the matched prefix is copied. */
    size_t matched;
    int diverged;
    nnh_buf text;     /* what the last write appended */
    int valid;        /* text and last_key belong together */
    int uncomparable; /* this write's inputs could not be keyed */
    unsigned long serial; /* names text: a new value at every write afresh */
} nnh_section;

typedef void (*nnh_section_writer)(nnh_buf *b);

/* Start gathering a new key. Cannot fail. */
void nnh_section_begin(nnh_section *s);

/* Add n bytes (or a string, NUL included, NULL as an empty marker) to the
 * key. An allocation failure leaves the key unusable: that write is done
 * afresh. */
void nnh_section_key(nnh_section *s, const void *p, size_t n);
void nnh_section_key_str(nnh_section *s, const char *str);

/* This write's inputs cannot be keyed (e.g. they include a shop's
 * prices): the section is written afresh. */
void nnh_section_uncomparable(nnh_section *s);

/* Append the section to b: the last text when the gathered key equals the
 * last one, else write() afresh (and keep its text and key). */
void nnh_section_write(nnh_section *s, nnh_buf *b, nnh_section_writer write);

/* The serial of the text the last nnh_section_write() appended, or 0 when
 * that text was not kept (it could not be keyed, or memory ran out). Two
 * equal non-zero serials name byte-identical texts, of any section: serials
 * come from one counter and are never reused, so a delta response can tell
 * a member unchanged without comparing its bytes (obs_delta.h). */
unsigned long nnh_section_serial(const nnh_section *s);

/* Whether every reuse is checked against a fresh write (the sanitized
 * twin, or NNH_CHECK_REUSE set): then other shortcuts check theirs too. */
int nnh_reuse_checking(void);

#endif
