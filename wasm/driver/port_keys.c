/* port_keys.c - the typed key queue between requests and the window port.
 *
 * A gameplay request becomes a short sequence of NetHack keys. Keys tagged
 * NNH_FOR_ITEM or NNH_FOR_DIRECTION carry an argument of the initiating
 * request; they wait at the head of the queue until a prompt of that kind
 * asks, so an unrelated question in between (say, "There is a apple here;
 * eat it?") becomes a real decision instead of swallowing the argument. */
#include "hack.h"
#include "nnh_state.h"
#include "port_keys.h"

#define NNH_KEY_QUEUE 64

static struct { int key; enum nnh_key_for kind; } queue[NNH_KEY_QUEUE];
static int head, count;
static int last_popped; /* the key most recently handed to the engine */

/* Drop every queued key. This function can't fail. */
void nnh_keys_clear(void) { head = count = 0; }

/* Append a key; silently ignored when full (requests need at most ~12). */
void nnh_keys_push(int key, enum nnh_key_for kind)
{
    if (count == NNH_KEY_QUEUE) return;
    queue[(head + count) % NNH_KEY_QUEUE].key = key;
    queue[(head + count) % NNH_KEY_QUEUE].kind = kind;
    count++;
}

/* Pop the head key if the asking prompt may consume it: untagged keys go to
 * anyone, tagged keys only to their prompt kind. Returns 1 and sets *key, or
 * 0 when nothing suitable is queued (the head stays queued). */
int nnh_keys_pop(enum nnh_key_for asking, int *key)
{
    if (!count) return 0;
    if (queue[head].kind != NNH_FOR_ANY && queue[head].kind != asking) return 0;
    *key = last_popped = queue[head].key;
    head = (head + 1) % NNH_KEY_QUEUE;
    count--;
    return 1;
}

/* Number of queued keys. */
int nnh_keys_pending(void) { return count; }

/* True when the key last handed to the engine was a digit the driver queued
 * as a count: get_count() then echoes it ("Count: 30"), which is our own
 * input read back, not something the game told the hero. */
int nnh_keys_counting(void) { return last_popped >= '0' && last_popped <= '9'; }
