/* obs_events.c - the event stream of one operation (see obs_events.h).
 *
 * The stream is a JSON fragment built as events happen, so writing a
 * response costs one copy; its owner is the boundary, which resets it when
 * it accepts a request and after it answers one. */
#include "hack.h"
#include "nnh_state.h"
#include "obs_events.h"
#include "obs_hazards.h"

static void separate(void)
{
    if (nnh.n_events++) nnh_buf_char(&nnh.events, ',');
}

void nnh_event_raw(const char *json_object)
{
    separate();
    nnh_buf_cstr(&nnh.events, json_object);
}

void nnh_event_heard(const char *text)
{
    if (!text || !*text) return;
    separate();
    nnh_buf_cstr(&nnh.events, "{\"type\":\"heard\",\"text\":");
    nnh_buf_jstr(&nnh.events, text);
    nnh_buf_char(&nnh.events, '}');
    if (nnh.n_recent == NNH_RECENT_MESSAGES) {
        memmove(nnh.recent[0], nnh.recent[1], sizeof nnh.recent[0] * (NNH_RECENT_MESSAGES - 1));
        nnh.n_recent--;
    }
    strncpy(nnh.recent[nnh.n_recent], text, NNH_LABEL_MAX - 1);
    nnh.recent[nnh.n_recent][NNH_LABEL_MAX - 1] = 0;
    nnh.n_recent++;
    nnh.recent_changes++;
}

void nnh_event_passage(const char *const *lines, int n)
{
    int i;
    if (!n) return;
    separate();
    nnh_buf_cstr(&nnh.events, "{\"type\":\"passage\",\"lines\":[");
    for (i = 0; i < n; i++) {
        if (i) nnh_buf_char(&nnh.events, ',');
        nnh_buf_jstr(&nnh.events, lines[i]);
    }
    nnh_buf_cstr(&nnh.events, "]}");
}

void nnh_events_write(nnh_buf *b)
{
    nnh_buf_raw(b, nnh.events.data ? nnh.events.data : "", nnh.events.len);
}

void nnh_events_reset(void)
{
    nnh_buf_reset(&nnh.events);
    nnh.n_events = 0;
    nnh_hazards_reset();
}
