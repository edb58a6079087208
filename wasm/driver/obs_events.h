/* obs_events.h - the event stream of one operation.
 *
 * Events are what the hero was told while an operation ran, in order:
 * messages ("heard"), display-only text windows ("passage"), and the typed
 * events other modules build (creatureDied, lifeSaved, door locks). They
 * accumulate from the moment a request is accepted until its response is
 * written, then start over. */
#ifndef NNH_OBS_EVENTS_H
#define NNH_OBS_EVENTS_H

#include "json_write.h"

/* Append a complete JSON object, written by the caller, as one event. */
void nnh_event_raw(const char *json_object);

/* A message the hero heard or saw; also kept in the rolling list of recent
 * messages. Empty or NULL text is ignored. */
void nnh_event_heard(const char *text);

/* A text window's lines as one passage event; nothing when n is 0. */
void nnh_event_passage(const char *const *lines, int n);

/* Append this operation's events (the members of the "events" array, without
 * brackets) to b. Can't fail (an exhausted buffer records oom itself). */
void nnh_events_write(nnh_buf *b);

/* Forget this operation's events: a new operation starts. */
void nnh_events_reset(void);

#endif
