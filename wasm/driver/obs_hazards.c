/* obs_hazards.c - the attacked event (see obs_hazards.h). */
#include "hack.h"
#include "nnh_state.h"
#include "obs_events.h"
#include "obs_hazards.h"

/* Events of one operation are capped so a long counted search next to a
 * monster cannot grow the response without bound: past the cap the stream
 * keeps the messages, which say the same. */
#define NNH_ATTACK_EVENTS_MAX 64

_Static_assert(NNH_ATTACK_LAUNCHED + 1 == NNH_ATTACK_KINDS, "nnh_attack_kind_names follows enum nnh_attack_kind");

static int attack_events; /* this operation's, reset with its event stream */

void nnh_hazards_reset(void)
{
    attack_events = 0;
}

void nnh_hook_attacked(int kind)
{
    char event[64];
    if (!nnh.in_flight || kind < 0 || kind >= NNH_ATTACK_KINDS) return;
    if (attack_events >= NNH_ATTACK_EVENTS_MAX) return;
    attack_events++;
    Sprintf(event, "{\"type\":\"attacked\",\"by\":\"%s\"}", nnh_attack_kind_names[kind]);
    nnh_event_raw(event);
}
