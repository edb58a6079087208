/* obs_hazards.c - the attacked event (see obs_hazards.h). */
#include "hack.h"
#include "nnh_state.h"
#include "obs_events.h"
#include "obs_hazards.h"

/* Events of one operation are capped so a long counted search next to a
 * monster cannot grow the response without bound: past the cap the stream
 * keeps the messages, which say the same. */
#define NNH_ATTACK_EVENTS_MAX 64

static int attack_events; /* this operation's, reset with its event stream */

void nnh_hazards_reset(void)
{
    attack_events = 0;
}

void nnh_hook_attacked(int kind)
{
    static const char *const events[] = {
        "{\"type\":\"attacked\",\"by\":\"melee\"}",
        "{\"type\":\"attacked\",\"by\":\"missile\"}",
        "{\"type\":\"attacked\",\"by\":\"launched\"}",
    };
    if (!nnh.in_flight || kind < 0 || kind >= (int) SIZE(events)) return;
    if (attack_events >= NNH_ATTACK_EVENTS_MAX) return;
    attack_events++;
    nnh_event_raw(events[kind]);
}
