/* port_window.c - the "nnh" window port: records what a tty player is shown.
 *
 * Output calls (messages, map glyphs, text windows, menus) are recorded as
 * events and map state. Input calls first consume queued keys or pending
 * answers; when none fits, they publish a typed decision through
 * nnh_await_input(), which returns only once a request supplied input.
 * A --More-- is part of the message stream and never a decision; display-
 * only menus and text windows become passage events. Every callback here is
 * plain synchronous C: the only suspension point is inside the boundary. */
#include "hack.h"
#include "func_tab.h"
#include "dlb.h"
#include "nnh_state.h"
#include "proto_boundary.h"
#include "port_window.h"
#include "port_map.h"
#include "port_keys.h"
#include "obs_events.h"
#include "obs_endings.h"

#include <stddef.h>

#define NNH_MAX_WINDOWS 32
#define NNH_MAX_ITEMS 256

typedef struct {
    anything identifier;
    char selector;
    char text[NNH_LABEL_MAX];
    int preselected;
} nnh_menu_line;

typedef struct {
    int in_use;
    int type;
    int n_lines;
    nnh_menu_line lines[NNH_MAX_ITEMS];
    char prompt[NNH_LABEL_MAX];
} nnh_window;

static nnh_window windows[NNH_MAX_WINDOWS];

/* A display-only text window becomes one passage event. */
static void event_passage(nnh_window *w)
{
    const char *lines[NNH_MAX_ITEMS];
    int i;
    for (i = 0; i < w->n_lines; i++) lines[i] = w->lines[i].text;
    nnh_event_passage(lines, w->n_lines);
    nnh_endings_record(lines, w->n_lines);
}

/* ---- window lifecycle -------------------------------------------------- */

static void nnh_init_nhwindows(int *argc, char **argv)
{
    memset(windows, 0, sizeof windows);
    nnh_map_reset_window();
    iflags.window_inited = TRUE;
}

/* Character selection happens before NetHack starts (session.create), so
 * the role/race/gender/alignment flags are always already decided. */
static void nnh_player_selection(void) {}
static void nnh_askname(void) { Strcpy(plname, "Agent"); }
static void nnh_get_nh_event(void) {}
static void nnh_exit_nhwindows(const char *str) { if (str && *str) nnh_event_heard(str); }
static void nnh_suspend_nhwindows(const char *str) {}
static void nnh_resume_nhwindows(void) {}

static winid nnh_create_nhwindow(int type)
{
    int i;
    for (i = 1; i < NNH_MAX_WINDOWS; i++) {
        if (!windows[i].in_use) {
            memset(&windows[i], 0, sizeof windows[i]);
            windows[i].in_use = 1;
            windows[i].type = type;
            return i;
        }
    }
    return 0; /* window 0 is a sink; NetHack never needs 31 at once */
}

static void nnh_clear_nhwindow(winid w)
{
    if (w == WIN_MAP) {
        nnh_map_reset_window();
        nnh_map_note_level(ledger_no(&u.uz));
    } else if (w > 0 && w < NNH_MAX_WINDOWS) {
        windows[w].n_lines = 0;
    }
}

static void nnh_display_nhwindow(winid w, BOOLEAN_P blocking)
{
    if (w <= 0 || w >= NNH_MAX_WINDOWS || w == WIN_MESSAGE || w == WIN_MAP
        || w == WIN_STATUS)
        return; /* --More-- and redraws need no answer */
    event_passage(&windows[w]);
    windows[w].n_lines = 0;
}

static void nnh_destroy_nhwindow(winid w)
{
    if (w > 0 && w < NNH_MAX_WINDOWS && w != WIN_MESSAGE && w != WIN_MAP
        && w != WIN_STATUS)
        windows[w].in_use = 0;
}

static void nnh_curs(winid w, int x, int y)
{
    if (w == WIN_MAP) {
        nnh.hint_x = x;
        nnh.hint_y = y;
    }
}

static void add_line(winid w, const char *text, const anything *id, char selector, int pre)
{
    nnh_window *win;
    nnh_menu_line *line;
    if (w <= 0 || w >= NNH_MAX_WINDOWS) return;
    win = &windows[w];
    if (win->n_lines >= NNH_MAX_ITEMS) return;
    line = &win->lines[win->n_lines++];
    memset(line, 0, sizeof *line);
    strncpy(line->text, text ? text : "", NNH_LABEL_MAX - 1);
    if (id) line->identifier = *id;
    line->selector = selector;
    line->preselected = pre;
}

/* get_count()'s echo of the count the driver typed: "Count: 30" (cmd.c). */
static int is_count_echo(const char *str)
{
    if (strncmp(str, "Count: ", 7)) return 0;
    for (str += 7; *str; str++)
        if (*str < '0' || *str > '9') return 0;
    return nnh_keys_counting();
}

static void nnh_putstr(winid w, int attr, const char *str)
{
    if (w == WIN_MESSAGE) {
        if (!is_count_echo(str)) nnh_event_heard(str);
    } else if (w == WIN_STATUS || w == WIN_MAP) {
        /* vitals come from the status fields themselves (obs_build.c) */
    } else {
        add_line(w, str, NULL, 0, 0);
    }
}

static void nnh_display_file(const char *fname, BOOLEAN_P complain)
{
    dlb *f = dlb_fopen(fname, "r");
    char line[BUFSZ];
    winid w;
    if (!f) return;
    w = nnh_create_nhwindow(NHW_TEXT);
    while (dlb_fgets(line, sizeof line, f)) {
        char *nl = index(line, '\n');
        if (nl) *nl = 0;
        add_line(w, line, NULL, 0, 0);
    }
    (void) dlb_fclose(f);
    nnh_display_nhwindow(w, TRUE);
    nnh_destroy_nhwindow(w);
}

/* ---- menus --------------------------------------------------------------- */

static void nnh_start_menu(winid w)
{
    if (w > 0 && w < NNH_MAX_WINDOWS) {
        windows[w].n_lines = 0;
        windows[w].prompt[0] = 0;
    }
}

static void nnh_add_menu(winid w, int glyph, const ANY_P *id, CHAR_P ch, CHAR_P gch,
                         int attr, const char *str, BOOLEAN_P preselected)
{
    add_line(w, str, id, ch, preselected);
}

static void nnh_end_menu(winid w, const char *prompt)
{
    if (w > 0 && w < NNH_MAX_WINDOWS && prompt)
        strncpy(windows[w].prompt, prompt, NNH_LABEL_MAX - 1);
}

static int selectable(const nnh_menu_line *line)
{
    return line->identifier.a_void != 0;
}

/* Publish a menu as a choice decision whose option IDs are the selectable
 * lines in display order; headers become each option's group. */
static void publish_menu(nnh_window *win, int how)
{
    nnh_decision *d = &nnh.decision;
    char group[64] = "";
    int i;
    memset(d, 0, sizeof *d);
    d->kind = NNH_AT_CHOICE;
    d->is_menu = 1;
    d->menu_how = how;
    strncpy(d->prompt, win->prompt, NNH_LABEL_MAX - 1);
    if (!d->prompt[0] && win->n_lines && !selectable(&win->lines[0]))
        strncpy(d->prompt, win->lines[0].text, NNH_LABEL_MAX - 1); /* untitled: its first header */
    if (!d->prompt[0]) strcpy(d->prompt, how == PICK_ONE ? "Pick one" : "Pick any");
    for (i = 0; i < win->n_lines && d->n_options < NNH_MAX_OPTIONS; i++) {
        nnh_menu_line *line = &win->lines[i];
        if (!selectable(line)) {
            strncpy(group, line->text, sizeof group - 1);
            continue;
        }
        d->options[d->n_options].id = d->n_options;
        strncpy(d->options[d->n_options].name, line->text, NNH_LABEL_MAX - 1);
        strncpy(d->options[d->n_options].group, group, sizeof group - 1);
        d->options[d->n_options].preselected = line->preselected;
        d->options[d->n_options].identifier_ptr = (const void *) line;
        d->n_options++;
    }
}

static int nnh_select_menu(winid w, int how, MENU_ITEM_P **menu_list)
{
    nnh_window *win;
    int i, n = 0;
    *menu_list = NULL;
    if (w <= 0 || w >= NNH_MAX_WINDOWS) return -1;
    win = &windows[w];
    /* At game over an untitled pick-one menu is the possessions list
       (display_inventory wanting a reply nobody uses): a display. */
    if (how == PICK_NONE || (program_state.gameover && how == PICK_ONE && !win->prompt[0])) {
        event_passage(win);
        return 0;
    }
    for (;;) {
        if (nnh.pending.have_menu) break;
        publish_menu(win, how);
        if (!nnh.decision.n_options) {
            /* nothing selectable: a display, not a question */
            nnh.decision.active = 0;
            event_passage(win);
            return 0;
        }
        nnh_await_input(NNH_AT_CHOICE);
    }
    nnh.pending.have_menu = 0;
    if (nnh.pending.menu_cancel) return -1;
    *menu_list = (MENU_ITEM_P *) alloc(sizeof(MENU_ITEM_P) * (nnh.pending.menu_count + 1));
    for (i = 0; i < nnh.pending.menu_count; i++) {
        int id = nnh.pending.menu_ids[i], seen = -1, k;
        for (k = 0; k < win->n_lines; k++) {
            if (!selectable(&win->lines[k])) continue;
            if (++seen == id) {
                (*menu_list)[n].item = win->lines[k].identifier;
                (*menu_list)[n].count = nnh.pending.menu_qty[i] > 0 ? nnh.pending.menu_qty[i] : -1L;
                n++;
                break;
            }
        }
    }
    if (!n) {
        free((genericptr_t) *menu_list);
        *menu_list = NULL;
    }
    return n;
}

static char nnh_message_menu(CHAR_P let, int how, const char *mesg)
{
    nnh_event_heard(mesg);
    return let;
}

/* ---- input ----------------------------------------------------------- */

static enum nnh_key_for key_kind_for(enum nnh_boundary b)
{
    return b == NNH_AT_ITEM ? NNH_FOR_ITEM
         : b == NNH_AT_DIRECTION ? NNH_FOR_DIRECTION : NNH_FOR_ANY;
}

/* Take the prompt hint left by nnh_hook_prompt(); hints are single-use. */
static enum nnh_boundary take_hint(enum nnh_boundary fallback)
{
    int b = (int) nnh.hint;
    nnh.hint = (enum nnh_boundary) -1;
    return b == -1 ? fallback : (enum nnh_boundary) b;
}

/* Empty the decision before a new question. Options are only ever
 * written at options[n_options] before n_options grows, so every entry
 * past n_options is already zero: clearing the ones in use and the fields
 * around the table equals clearing it all, without writing its ~40 KB at
 * every step. */
static void decision_clear(void)
{
    nnh_decision *d = &nnh.decision;
    size_t table = offsetof(nnh_decision, options), after = table + sizeof d->options;
    int used = d->n_options < 0 ? 0 : d->n_options > NNH_MAX_OPTIONS ? NNH_MAX_OPTIONS : d->n_options;
    memset(d->options, 0, (size_t) used * sizeof *d->options);
    memset(d, 0, table);
    memset((char *) d + after, 0, sizeof *d - after);
}

static int read_key(enum nnh_boundary at)
{
    int key;
    for (;;) {
        if (nnh_keys_pop(key_kind_for(at), &key)) return key;
        if (at == NNH_AT_COMMAND) nnh_keys_clear(); /* stale tagged arguments */
        decision_clear();
        nnh.decision.kind = at;
        if (at == NNH_AT_TEXT) {
            nnh.decision.key_prompt = 1;
            strncpy(nnh.decision.prompt, "(key)", NNH_LABEL_MAX - 1);
        }
        nnh_await_input(at);
    }
}

static int nnh_nhgetch(void)
{
    enum nnh_boundary at = take_hint(NNH_AT_TEXT);
    if (at != NNH_AT_COMMAND) at = NNH_AT_TEXT;
    return read_key(at);
}

static int nnh_nh_poskey(int *x, int *y, int *mod)
{
    enum nnh_boundary at = take_hint(NNH_AT_TEXT);
    int key;
    if (at == NNH_AT_POSITION) {
        for (;;) {
            if (nnh.pending.have_click) {
                nnh.pending.have_click = 0;
                *x = nnh.pending.click_x;
                *y = nnh.pending.click_y;
                *mod = CLICK_1;
                return 0;
            }
            if (nnh_keys_pop(NNH_FOR_ANY, &key)) return key;
            decision_clear();
            nnh.decision.kind = NNH_AT_POSITION;
            strncpy(nnh.decision.prompt, nnh.hint_detail, NNH_LABEL_MAX - 1);
            nnh.decision.cursor_x = nnh.hint_x;
            nnh.decision.cursor_y = nnh.hint_y;
            nnh_await_input(NNH_AT_POSITION);
        }
    }
    if (at != NNH_AT_COMMAND) at = NNH_AT_TEXT;
    return read_key(at);
}

static char nnh_yn_function(const char *query, const char *choices, CHAR_P def)
{
    enum nnh_boundary at = take_hint(NNH_AT_TEXT);
    int key;
    enum nnh_key_for asking;
    nnh_decision *d = &nnh.decision;

    if (at != NNH_AT_DIRECTION && at != NNH_AT_ITEM) {
        if (!choices || !*choices) at = NNH_AT_TEXT;
        else if (!strcmp(choices, "yn") || !strcmp(choices, "ynq"))
            at = NNH_AT_CONFIRMATION;
        else at = NNH_AT_CHOICE;
    }
    /* a ring hand chosen by game.equip's slot answers only the finger question */
    asking = at == NNH_AT_CHOICE && choices && !strcmp(choices, "rl") ? NNH_FOR_HAND
                                                                       : key_kind_for(at);
    for (;;) {
        if (nnh_keys_pop(asking, &key)) break;
        memset(d, 0, sizeof *d);
        d->kind = at;
        strncpy(d->prompt, query ? query : "", NNH_LABEL_MAX - 1);
        if (choices) strncpy(d->choices, choices, sizeof d->choices - 1);
        d->default_key = def;
        if (at == NNH_AT_ITEM) {
            strncpy(d->item_letters, nnh.hint_detail, sizeof d->item_letters - 1);
            d->counted = nnh.hint_counted != 0;
        }
        if (at == NNH_AT_TEXT) d->key_prompt = 1;
        if (at == NNH_AT_CHOICE) {
            const char *c;
            for (c = choices; *c && *c != '\033' && d->n_options < NNH_MAX_OPTIONS; c++) {
                nnh_option *o = &d->options[d->n_options];
                o->id = d->n_options;
                o->key = *c;
                snprintf(o->name, sizeof o->name, "%s",
                         *c == 'y' ? "yes" : *c == 'n' ? "no" : *c == 'a' ? "all"
                         : *c == 'q' ? "quit" : *c == 'l' && index(choices, 'r') ? "left"
                         : *c == 'r' && index(choices, 'l') ? "right" : "");
                if (!o->name[0]) { o->name[0] = *c; o->name[1] = 0; }
                d->n_options++;
            }
        }
        nnh_await_input(at);
    }
    if (key == '\033') {
        /* tty semantics for an escaped question */
        if (choices && index(choices, 'q')) return 'q';
        if (choices && index(choices, 'n')) return 'n';
        return at == NNH_AT_ITEM || at == NNH_AT_DIRECTION || !choices ? '\033' : def;
    }
    if (choices && *choices && !index(choices, key))
        return def;
    return (char) key;
}

static void nnh_getlin(const char *query, char *buf)
{
    for (;;) {
        if (nnh.pending.have_text) {
            nnh.pending.have_text = 0;
            Strcpy(buf, nnh.pending.text); /* "\033" on cancel, as tty */
            return;
        }
        decision_clear();
        nnh.decision.kind = NNH_AT_TEXT;
        strncpy(nnh.decision.prompt, query ? query : "", NNH_LABEL_MAX - 1);
        nnh_await_input(NNH_AT_TEXT);
    }
}

static int nnh_get_ext_cmd(void)
{
    int index_ = nnh.pending.ext_command;
    nnh.pending.ext_command = -1;
    return index_;
}

static int nnh_doprev_message(void) { return 0; }
static void nnh_number_pad(int state) {}
static void nnh_delay_output(void) {}
static void nnh_nhbell(void) {}
static void nnh_update_inventory(void) {}
static void nnh_mark_synch(void) {}
static void nnh_wait_synch(void) {}
static void nnh_cliparound(int x, int y) {}
static void nnh_print_glyph(winid w, XCHAR_P x, XCHAR_P y, int glyph, int bkglyph)
{
    if (w == WIN_MAP) nnh_map_print_glyph(x, y, glyph);
}
static void nnh_raw_print(const char *str)
{
    if (str && *str) nnh_event_heard(str);
}
static void nnh_start_screen(void) {}
static void nnh_end_screen(void) {}
static void nnh_outrip(winid w, int how, time_t when) {}
static void nnh_preference_update(const char *pref) {}
static void nnh_status_init(void) {}
static void nnh_status_finish(void) {}
static void nnh_status_enablefield(int i, const char *n, const char *f, BOOLEAN_P e) {}
static void nnh_status_update(int i, genericptr_t p, int c, int pc, int col, unsigned long *m) {}

struct window_procs nnh_procs = {
    "nnh", 0L, 0L,
    { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
    nnh_init_nhwindows, nnh_player_selection, nnh_askname, nnh_get_nh_event,
    nnh_exit_nhwindows, nnh_suspend_nhwindows, nnh_resume_nhwindows,
    nnh_create_nhwindow, nnh_clear_nhwindow, nnh_display_nhwindow,
    nnh_destroy_nhwindow, nnh_curs, nnh_putstr, genl_putmixed,
    nnh_display_file, nnh_start_menu, nnh_add_menu, nnh_end_menu,
    nnh_select_menu, nnh_message_menu, nnh_update_inventory, nnh_mark_synch,
    nnh_wait_synch,
#ifdef CLIPPING
    nnh_cliparound,
#endif
#ifdef POSITIONBAR
    0,
#endif
    nnh_print_glyph, nnh_raw_print, nnh_raw_print, nnh_nhgetch, nnh_nh_poskey,
    nnh_nhbell, nnh_doprev_message, nnh_yn_function, nnh_getlin,
    nnh_get_ext_cmd, nnh_number_pad, nnh_delay_output,
#ifdef CHANGE_COLOR
    0, 0,
#endif
    nnh_start_screen, nnh_end_screen, nnh_outrip, nnh_preference_update,
    genl_getmsghistory, genl_putmsghistory, nnh_status_init, nnh_status_finish,
    nnh_status_enablefield, nnh_status_update, genl_can_suspend_no,
};

/* ---- hooks called from NetHack (nnh_hooks.h) ---------------------------- */

void nnh_hook_prompt(int kind, const char *detail, int x, int y)
{
    switch (kind) {
    case NNH_PROMPT_COMMAND: nnh.hint = NNH_AT_COMMAND; break;
    case NNH_PROMPT_DIRECTION: nnh.hint = NNH_AT_DIRECTION; break;
    case NNH_PROMPT_ITEM: nnh.hint = NNH_AT_ITEM; break;
    case NNH_PROMPT_POSITION: nnh.hint = NNH_AT_POSITION; break;
    default: nnh.hint = (enum nnh_boundary) -1; break;
    }
    strncpy(nnh.hint_detail, detail ? detail : "", sizeof nnh.hint_detail - 1);
    nnh.hint_detail[sizeof nnh.hint_detail - 1] = 0;
    if (kind == NNH_PROMPT_POSITION) {
        nnh.hint_x = x;
        nnh.hint_y = y;
    }
    if (kind == NNH_PROMPT_ITEM) nnh.hint_counted = x;
}
