/* item_query.c - perceived-name queries for item arguments (`itemName`).
 *
 * A query names a carried item the way the player sees it: its whole
 * inventory label ("an uncursed potion of water"), that label without its
 * article or count ("uncursed potion of water"), the object's name as
 * NetHack prints it - either of those without the parenthesised state at
 * its end ("a +0 dagger" for "a +0 dagger (weapon in hand)") - xname(),
 * which says the identity once the type is
 * identified and otherwise the appearance or the player's "called" name -
 * in the stack's number or singular ("darts", "dart"), or the item's own
 * given name. Case is ignored. Every candidate string is one NetHack prints
 * for the player, so a query can never reach an item by a hidden property;
 * and nothing is guessed: a query that fits several items is refused. */
#include "hack.h"
#include "nnh_state.h"
#include "obs_items.h"
#include "item_query.h"

/* The label after its article or count ("a ", "an ", "the ", "12 "). */
static const char *without_article(const char *label)
{
    const char *p = label;
    if (!strncmpi(p, "a ", 2)) return p + 2;
    if (!strncmpi(p, "an ", 3)) return p + 3;
    if (!strncmpi(p, "the ", 4)) return p + 4;
    while (digit(*p)) p++;
    return p != label && *p == ' ' ? p + 1 : label;
}

/* Naming may set dknown as a side effect; a query must not change what the
 * hero knows, so it is restored (as in nnh_item_write). */
static int named(struct obj *o, const char *query)
{
    unsigned dknown = o->dknown;
    char label[BUFSZ], stateless[BUFSZ], plain[BUFSZ], single[BUFSZ], *paren;
    int hit;
    Strcpy(label, doname(o));
    Strcpy(stateless, label);
    if ((paren = strstri(stateless, " (")) != 0) *paren = '\0';
    Strcpy(plain, xname(o));
    Strcpy(single, singular(o, xname));
    o->dknown = dknown;
    hit = !strcmpi(query, label) || !strcmpi(query, without_article(label))
          || !strcmpi(query, stateless) || !strcmpi(query, without_article(stateless))
          || !strcmpi(query, plain) || !strcmpi(query, single)
          || (has_oname(o) && o->dknown && !strcmpi(query, ONAME(o)));
    return hit;
}

/* Resolve a query against the inventory. Returns how many carried items
 * it names; when that is 1, *found is the item. Can't fail. */
int nnh_item_named(const char *query, struct obj **found)
{
    struct obj *o;
    int n = 0;
    for (o = invent; o; o = o->nobj)
        if (named(o, query)) {
            if (!n) *found = o;
            n++;
        }
    return n;
}
