/* item_ids.c - opaque item IDs: o_id -> "item-<n>", and back, exactly.
 *
 * Numbers are handed out in order of first sight and never reused; the
 * table is the only place that knows which o_id a published ID names. */
#include "hack.h"
#include "item_ids.h"
#include <limits.h>

/* Open addressing, o_id -> sequence number. A slot holds 0 (empty, ends a
 * probe), RETIRED (an o_id that no longer names its stack: probes pass
 * over it, lookups ignore it) or a sequence number. */
#define ID_TABLE 4096
#define RETIRED (-1)
#define ID_LIMIT INT_MAX
static unsigned id_keys[ID_TABLE];
static int id_values[ID_TABLE];
static int id_next = 1;
static char id_text[32];

static int id_slot(unsigned o_id)
{
    unsigned h = (o_id * 2654435761u) & (ID_TABLE - 1);
    int probes;
    for (probes = 0; probes < ID_TABLE; probes++, h = (h + 1) & (ID_TABLE - 1)) {
        if (id_values[h] > 0 && id_keys[h] == o_id) return (int) h;
        if (!id_values[h]) return -1;
    }
    return -1;
}

static int id_for(unsigned o_id, int create)
{
    unsigned h = (o_id * 2654435761u) & (ID_TABLE - 1);
    int probes;
    for (probes = 0; probes < ID_TABLE; probes++, h = (h + 1) & (ID_TABLE - 1)) {
        if (id_values[h] > 0 && id_keys[h] == o_id) return id_values[h];
        if (!id_values[h]) {
            if (!create) return 0;
            id_keys[h] = o_id;
            id_values[h] = id_next++;
            return id_values[h];
        }
    }
    return 0;
}

const char *nnh_item_id(unsigned o_id)
{
    /* by hand, not Sprintf: every item of every response asks (ids > 0) */
    char digits[12];
    int n = 0, id = id_for(o_id, 1);
    char *out = id_text + 5;
    do digits[n++] = (char) ('0' + id % 10); while ((id /= 10) > 0);
    memcpy(id_text, "item-", 5);
    while (n) *out++ = digits[--n];
    *out = 0;
    return id_text;
}

/* Called at every input boundary, before any response is written, so the
 * numbering does not depend on which responses were quiet. */
void nnh_items_register(void)
{
    struct obj *o;
    if (!youmonst.data) return; /* NetHack stopped before the hero existed */
    for (o = invent; o; o = o->nobj) (void) id_for(o->o_id, 1);
    if (Blind || Underwater || u.uswallow) return;
    for (o = level.objects[u.ux][u.uy]; o; o = o->nexthere) (void) id_for(o->o_id, 1);
}

/* Exact match only: "item-" then the canonical decimal of a number in use
 * (no sign, no leading zero, nothing after it). atoi()-style parsing would
 * read "item-2.junk" or "item-02" as item 2, and an opaque ID must not
 * have aliases. */
int nnh_item_lookup(const char *id, unsigned *o_id)
{
    int want = 0, h;
    const char *p;
    if (strncmp(id, "item-", 5) || id[5] < '1' || id[5] > '9') return 0;
    for (p = id + 5; *p; p++) {
        if (*p < '0' || *p > '9' || want > (ID_LIMIT - (*p - '0')) / 10) return 0;
        want = want * 10 + (*p - '0');
    }
    for (h = 0; h < ID_TABLE; h++)
        if (id_values[h] == want) { *o_id = id_keys[h]; return 1; }
    return 0;
}

/* NetHack's obfree() can give a surviving stack the o_id of the stack
 * merged into it (shk.c keeps the higher o_id-based price); gold merges so
 * a quarter of the time. The surviving stack keeps the ID the player knew
 * it by: its old binding moves to the new o_id, and the absorbed stack's
 * ID retires with the object. Can't fail. */
void nnh_hook_oid_transfer(unsigned survivor_o_id, unsigned absorbed_o_id)
{
    int from = id_slot(survivor_o_id), to = id_slot(absorbed_o_id), value;
    if (from < 0) return; /* never published: nothing to keep */
    value = id_values[from];
    id_values[from] = RETIRED;
    if (to >= 0) id_values[to] = RETIRED;
    to = (int) ((absorbed_o_id * 2654435761u) & (ID_TABLE - 1));
    while (id_values[to]) to = (to + 1) & (ID_TABLE - 1);
    id_keys[to] = absorbed_o_id;
    id_values[to] = value;
}
