/* port_doors.c - door lock knowledge, only as NetHack discloses it.
 *
 * The engine tells a player a door is locked ("This door is locked.") or,
 * by opening it or by it resisting, that it is not. nnh_hook_door() records
 * each such disclosure per level with its turn, emits a doorWitness event,
 * and observations list the current level's records. Seeing a closed door
 * again neither refreshes nor invalidates a record; a newer disclosure at
 * the same square replaces it. Nothing is read from the door's own state. */
#include "hack.h"
#include "nnh_state.h"
#include "port_doors.h"
#include "obs_events.h"

#define NNH_MAX_DOORS 512

typedef struct {
    int ledger, x, y, locked;
    long turn;
} nnh_door;

static nnh_door witnessed[NNH_MAX_DOORS];
static int n_witnessed;

void nnh_hook_door(int x, int y, int locked)
{
    int ledger = ledger_no(&u.uz), i;
    char event[160];
    for (i = 0; i < n_witnessed; i++)
        if (witnessed[i].ledger == ledger && witnessed[i].x == x && witnessed[i].y == y) break;
    if (i == n_witnessed) {
        if (n_witnessed == NNH_MAX_DOORS) return; /* far beyond any real game */
        n_witnessed++;
    }
    witnessed[i].ledger = ledger;
    witnessed[i].x = x;
    witnessed[i].y = y;
    witnessed[i].locked = locked;
    witnessed[i].turn = moves;
    Sprintf(event, "{\"type\":\"doorWitness\",\"levelId\":\"d%d-l%d\",\"x\":%d,\"y\":%d,"
                   "\"fact\":\"%s\",\"turn\":%ld}",
            (int) u.uz.dnum, (int) u.uz.dlevel, x, y, locked ? "locked" : "unlocked", moves);
    nnh_event_raw(event);
}

/* The current level's disclosures: [{x, y, lock, turn}]. Can't fail. */
void nnh_doors_write(nnh_buf *b)
{
    int ledger = ledger_no(&u.uz), i, first = 1;
    nnh_buf_char(b, '[');
    for (i = 0; i < n_witnessed; i++) {
        if (witnessed[i].ledger != ledger) continue;
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_buf_cstr(b, "{\"x\":");
        nnh_buf_int(b, witnessed[i].x);
        nnh_buf_cstr(b, ",\"y\":");
        nnh_buf_int(b, witnessed[i].y);
        nnh_buf_cstr(b, witnessed[i].locked ? ",\"lock\":\"locked\",\"turn\":" : ",\"lock\":\"unlocked\",\"turn\":");
        nnh_buf_int(b, witnessed[i].turn);
        nnh_buf_char(b, '}');
    }
    nnh_buf_char(b, ']');
}
