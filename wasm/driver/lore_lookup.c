/* lore_lookup.c - session.lookup: the encyclopedia, as the / command finds
 * a typed name in NetHack's own data.base.
 *
 * The lookup runs NetHack's checkfile() (through the patched
 * nnh_lore_lookup) with the window procs briefly swapped for a capture:
 * the entry's text window becomes the answer's lines, and nothing reaches
 * the player's message stream, the map or a menu. checkfile only reads the
 * data file, so the game state, the random number generators, the revision
 * and any standing decision are exactly as before. */
#include "hack.h"
#include "nnh_state.h"
#include "lore_lookup.h"
#include "nnh_knowledge.h"

#define LORE_MAX_LINES 200

static nnh_buf *lore_out;
static int lore_lines;

static winid lore_create(int type) { return 1; }
static void lore_ignore_window(winid w) {}
static void lore_display(winid w, BOOLEAN_P blocking) {}
static void lore_curs(winid w, int x, int y) {}

static void lore_putstr(winid w, int attr, const char *str)
{
    if (w != 1 || lore_lines >= LORE_MAX_LINES) return; /* messages and status: not lore */
    if (lore_lines++) nnh_buf_char(lore_out, ',');
    nnh_buf_jstr(lore_out, str);
}

void nnh_lore_write(nnh_buf *b, const char *name)
{
    struct window_procs saved = windowprocs;
    char query[BUFSZ];
    nnh_buf lines;

    copynchars(query, name, BUFSZ - 1);
    nnh_buf_init(&lines);
    lore_out = &lines;
    lore_lines = 0;
    windowprocs.win_create_nhwindow = lore_create;
    windowprocs.win_clear_nhwindow = lore_ignore_window;
    windowprocs.win_display_nhwindow = lore_display;
    windowprocs.win_destroy_nhwindow = lore_ignore_window;
    windowprocs.win_curs = lore_curs;
    windowprocs.win_putstr = lore_putstr;
    nnh_lore_lookup(query);
    windowprocs = saved;
    nnh_buf_cstr(b, ",\"kind\":\"lore\",\"name\":");
    nnh_buf_jstr(b, name);
    nnh_buf_cstr(b, lore_lines ? ",\"found\":true,\"lines\":[" : ",\"found\":false,\"lines\":[");
    if (lore_lines) nnh_buf_raw(b, lines.data, lines.len);
    nnh_buf_char(b, ']');
    if (lines.oom) b->oom = 1;
    nnh_buf_free(&lines);
}
