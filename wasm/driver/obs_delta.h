/* obs_delta.h - delta responses: observation members the host already has.
 *
 * A gameplay or decision request with "delta":true gets a delta response:
 * each elidable member of the observation (the list below) whose text is
 * byte for byte the text this member had in the last response that carried
 * an observation is sent as `null` instead. No full response has `null`
 * there (each is an object or an array), so the marker is unambiguous. The
 * host keeps the last text of every member and puts it back, so the
 * reassembled response equals the full response byte for byte
 * (py/nethack_webmcp/engine/deltas.py; docs/PROTOCOL.md, "Delta
 * responses").
 *
 * Both sides remember the last text *sent*: every response that carries an
 * observation, delta or full, records each member it wrote in full, so a
 * full response in the middle of a delta stream (observe, create, a request
 * without the flag) keeps both sides in step. Elision is decided by
 * comparing bytes, never by a key, so it cannot publish a stale member; or,
 * for a member that is a reused section's text (obs_reuse.h), by the text's
 * serial: the same serial as the text last sent is the same bytes, known
 * without comparing them (the sanitized twin compares them anyway). */
#ifndef NNH_OBS_DELTA_H
#define NNH_OBS_DELTA_H

#include "json_write.h"

/* In the order the observation writes them. */
typedef enum {
    NNH_DELTA_VITALS,
    NNH_DELTA_INVENTORY,
    NNH_DELTA_HERE,
    NNH_DELTA_RECENT_MESSAGES,
    NNH_DELTA_ENTITIES,
    NNH_DELTA_DOORS,
    NNH_DELTA_TRAPS,
    NNH_DELTA_KNOWLEDGE,
    NNH_DELTA_AUTOMATIC_PICKUP,
    NNH_DELTA_MEMBERS
} nnh_delta_member;

/* Whether the observation being written may elide members (set by the
 * boundary for each response that carries one). */
void nnh_delta_set_enabled(int enabled);

/* The member's value was written to b from `start` on: in a delta
 * response, replace it by null when it equals the last text sent; record
 * it otherwise. An allocation failure forgets the member (the next
 * response sends it in full). */
void nnh_delta_settle(nnh_buf *b, nnh_delta_member member, size_t start);

/* nnh_delta_settle() for a member whose text from `start` on is the text
 * nnh_section_serial() named `serial` (0: unnamed, compared as above). */
void nnh_delta_settle_text(nnh_buf *b, nnh_delta_member member, size_t start, unsigned long serial);

#endif
