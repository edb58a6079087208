/* obs_deaths.c - witnessed creature deaths and life saving (creatureDied,
 * lifeSaved events).
 *
 * NetHack calls nnh_hook_creature_died() from mondead() once a creature is
 * dead for good: after an amulet of life saving or a vampire's rising had
 * their chance, and before a shapechanger is turned back into its true
 * form, so the appearance is the one the hero saw. The event is written
 * only when the hero directly saw the creature on a square in view: not
 * while hallucinating, engulfed, or when the creature was hidden or
 * disguised. It promises no corpse, no cause and no identity. */
#include "hack.h"
#include "nnh_state.h"
#include "obs_events.h"

/* 1 when the hero sees this creature as itself on a square in view. */
static int witnessed(struct monst *mtmp)
{
    return !Hallucination && !u.uswallow && isok(mtmp->mx, mtmp->my)
           && cansee(mtmp->mx, mtmp->my) && canseemon(mtmp) && !mtmp->mundetected
           && M_AP_TYPE(mtmp) == M_AP_NOTHING;
}

static void creature_event(nnh_buf *b, const char *type, struct monst *mtmp, int appearance)
{
    char levelid[32];
    Sprintf(levelid, "d%d-l%d", (int) u.uz.dnum, (int) u.uz.dlevel);
    nnh_buf_cstr(b, "{\"type\":");
    nnh_buf_jstr(b, type);
    nnh_buf_member_str(b, "levelId", levelid);
    nnh_buf_member_int(b, "x", mtmp->mx);
    nnh_buf_member_int(b, "y", mtmp->my);
    nnh_buf_member_int(b, "turn", moves);
    if (appearance) nnh_buf_member_str(b, "appearance", mtmp->data->mname);
    nnh_buf_char(b, '}');
}

void nnh_hook_creature_died(struct monst *mtmp)
{
    nnh_buf b;
    if (!witnessed(mtmp)) return;
    nnh_buf_init(&b);
    creature_event(&b, "creatureDied", mtmp, 1);
    if (!b.oom) nnh_event_raw(b.data);
    nnh_buf_free(&b);
}

/* A creature's medallion was seen to glow (the appearance only when the
 * creature itself is seen), or the hero's own life was saved. */
void nnh_hook_life_saved(struct monst *mtmp)
{
    nnh_buf b;
    if (!mtmp) {
        nnh_event_raw("{\"type\":\"lifeSaved\",\"who\":\"hero\"}");
        return;
    }
    if (Hallucination || u.uswallow) return;
    nnh_buf_init(&b);
    creature_event(&b, "lifeSaved", mtmp, witnessed(mtmp));
    if (!b.oom) nnh_event_raw(b.data);
    nnh_buf_free(&b);
}
