/* pickup_config.c - automatic ground pickup as NetHack's own options.
 *
 * The settings become NetHack's `autopickup` flag, its `pickup_types`
 * (object class numbers, as its options code stores them) and its autopickup exceptions, which it matches as POSIX
 * extended regexes against the singular perceived description
 * (makesingular(doname(obj))) and applies first match first. Exceptions
 * are prepended, so they are added in reverse priority: inclusions (arrows,
 * loot patterns) first, then ignore patterns, then the leave rules, which
 * therefore override every inclusion.
 *
 *   arrows            grab  (^| )arrow( named .*)?$
 *   leaveCorpses      leave  corpse( named .*)?$
 *   leaveKnownCursed  leave  ^(an? |the |[0-9]+ )?cursed
 *   lootPatterns      grab   the literal text, case ignored
 *   ignorePatterns    leave  the literal text, case ignored
 *
 * The curse rule matches only the word NetHack prints for a curse the
 * player knows. An empty type list is NetHack's venom class, which no
 * floor item has, so only an exception can then select an item.
 * `pickup_thrown` is off: thrown items follow the same filters. Shop
 * rules, weight limits and manual pickup are NetHack's, untouched. */
#include "hack.h"
#include <ctype.h>
#include "nnh_state.h"
#include "pickup_config.h"

/* NetHack's class for each of nnh_pickup_type_names (nnh_vocabulary.c). */
static const char type_classes[NNH_PICKUP_TYPES] = { COIN_CLASS, FOOD_CLASS, POTION_CLASS, SCROLL_CLASS,
    WEAPON_CLASS, ARMOR_CLASS, RING_CLASS, AMULET_CLASS, TOOL_CLASS, SPBOOK_CLASS, WAND_CLASS,
    GEM_CLASS, ROCK_CLASS, BALL_CLASS, CHAIN_CLASS };
#define N_TYPES NNH_PICKUP_TYPES
#define MAX_PATTERNS 16

static struct {
    int enabled, arrows, leave_corpses, leave_cursed;
    int types[N_TYPES];            /* selected, by index */
    char loot[MAX_PATTERNS][65], ignore[MAX_PATTERNS][65];
    int n_loot, n_ignore;
} settings;

/* Prepend one exception (NetHack's add_autopickup_exception takes a quoted
 * config line; a pattern may contain quotes, so the entry is built here). */
static void add_rule(const char *regex, boolean grab)
{
    struct autopickup_exception *ape = (struct autopickup_exception *) alloc(sizeof *ape);
    ape->regex = regex_init();
    if (!regex_compile(regex, ape->regex)) { /* our own escaped patterns always compile */
        regex_free(ape->regex);
        free((genericptr_t) ape);
        return;
    }
    ape->pattern = dupstr(regex);
    ape->grab = grab;
    ape->next = apelist;
    apelist = ape;
}

/* A literal, case-insensitive substring as an extended regex: letters
 * become [aA], other characters are escaped. */
static void literal_rule(const char *text, boolean grab)
{
    char regex[64 * 4 + 1], *r = regex;
    const unsigned char *p;
    for (p = (const unsigned char *) text; *p; p++) {
        if (isalpha(*p)) {
            *r++ = '[';
            *r++ = (char) tolower(*p);
            *r++ = (char) toupper(*p);
            *r++ = ']';
        } else {
            if (!isalnum(*p) && *p < 0x80 && *p != ' ') *r++ = '\\';
            *r++ = (char) *p;
        }
    }
    *r = 0;
    add_rule(regex, grab);
}

static void apply(void)
{
    char *t = flags.pickup_types;
    int i;
    flags.pickup = settings.enabled;
    flags.pickup_thrown = FALSE;
    for (i = 0; i < N_TYPES; i++)
        if (settings.types[i]) *t++ = type_classes[i];
    if (t == flags.pickup_types) *t++ = VENOM_CLASS;
    *t = 0;
    free_autopickup_exceptions();
    if (settings.arrows) add_rule("(^| )arrow( named .*)?$", TRUE);
    for (i = 0; i < settings.n_loot; i++) literal_rule(settings.loot[i], TRUE);
    for (i = 0; i < settings.n_ignore; i++) literal_rule(settings.ignore[i], FALSE);
    if (settings.leave_corpses) add_rule(" corpse( named .*)?$", FALSE);
    if (settings.leave_cursed) add_rule("^(an? |the |[0-9]+ )?cursed ", FALSE);
}

void nnh_pickup_defaults(void)
{
    memset(&settings, 0, sizeof settings);
    settings.types[0] = 1; /* gold */
    settings.arrows = settings.leave_corpses = settings.leave_cursed = 1;
    apply();
}

static int read_patterns(const nnh_json_doc *doc, int obj, const char *name, char out[][65])
{
    int v = nnh_json_member(doc, obj, name), c, n = 0;
    if (v < 0) return 0;
    for (c = nnh_json_node_at(doc, v)->first_child; c >= 0 && n < MAX_PATTERNS;
         c = nnh_json_node_at(doc, c)->next_sibling)
        copynchars(out[n++], nnh_json_node_at(doc, c)->str, 64);
    return n;
}

static int member_bool(const nnh_json_doc *doc, int obj, const char *name)
{
    int v = nnh_json_member(doc, obj, name);
    return v >= 0 && nnh_json_node_at(doc, v)->bool_val;
}

void nnh_pickup_configure_from(const nnh_json_doc *doc, int obj)
{
    int v = nnh_json_member(doc, obj, "itemTypes"), c, i;
    memset(&settings, 0, sizeof settings);
    settings.enabled = member_bool(doc, obj, "enabled");
    settings.arrows = member_bool(doc, obj, "arrows");
    settings.leave_corpses = member_bool(doc, obj, "leaveCorpses");
    settings.leave_cursed = member_bool(doc, obj, "leaveKnownCursed");
    for (c = nnh_json_node_at(doc, v)->first_child; c >= 0; c = nnh_json_node_at(doc, c)->next_sibling)
        for (i = 0; i < N_TYPES; i++)
            if (!strcmp(nnh_pickup_type_names[i], nnh_json_node_at(doc, c)->str)) settings.types[i] = 1;
    settings.n_loot = read_patterns(doc, obj, "lootPatterns", settings.loot);
    settings.n_ignore = read_patterns(doc, obj, "ignorePatterns", settings.ignore);
    apply();
}

void nnh_pickup_configure(const nnh_request *req)
{
    nnh_pickup_configure_from(req->doc, req->params);
}

static void patterns(nnh_buf *b, const char *key, char list[][65], int n)
{
    int i;
    if (!n) return;
    nnh_buf_char(b, ',');
    nnh_buf_key(b, key);
    nnh_buf_char(b, '[');
    for (i = 0; i < n; i++) {
        if (i) nnh_buf_char(b, ',');
        nnh_buf_jstr(b, list[i]);
    }
    nnh_buf_char(b, ']');
}

void nnh_pickup_write(nnh_buf *b)
{
    int i, first = 1;
    nnh_buf_cstr(b, settings.enabled ? "{\"enabled\":true,\"itemTypes\":[" : "{\"enabled\":false,\"itemTypes\":[");
    for (i = 0; i < N_TYPES; i++) {
        if (!settings.types[i]) continue;
        if (!first) nnh_buf_char(b, ',');
        first = 0;
        nnh_buf_jstr(b, nnh_pickup_type_names[i]);
    }
    nnh_buf_cstr(b, settings.arrows ? "],\"arrows\":true" : "],\"arrows\":false");
    nnh_buf_cstr(b, settings.leave_corpses ? ",\"leaveCorpses\":true" : ",\"leaveCorpses\":false");
    nnh_buf_cstr(b, settings.leave_cursed ? ",\"leaveKnownCursed\":true" : ",\"leaveKnownCursed\":false");
    patterns(b, "lootPatterns", settings.loot, settings.n_loot);
    patterns(b, "ignorePatterns", settings.ignore, settings.n_ignore);
    nnh_buf_char(b, '}');
}
