/* nnh_main.c - process entry: session.create, NetHack start-up, game end.
 *
 * Replaces sys/unix/unixmain.c. Determinism profile 1 is enforced here: the
 * seed feeds NetHack's RNGs through sys_random_seed(), the clock is fixed
 * to createdAt, and the only options NetHack reads are the controlled set
 * below (NETHACKOPTIONS is overwritten, so no user .nethackrc or
 * environment can leak in). */
#include "hack.h"
#include "dlb.h"
#include "nnh_state.h"
#include "proto_boundary.h"
#include "port_window.h"
#include "obs_events.h"
#include "pickup_config.h"
#include "proto_request.h"
#include "nnh_main.h"
#include "nnh_io.h"
#include "nnh_nethack.h"
#include <ctype.h>
#include <stdarg.h>

/* The one driver state (nnh_state.h): set up by main(), filled by
 * nnh_start_game(), ended by nnh_hook_terminate(). */
nnh_driver nnh;

/* Controlled options: ASCII map, visible turn counter and experience,
 * no autopickup by default, no bones, no intro text or news, and nothing
 * that animates the map (sparkle) or asks tty-only questions. runmode:walk
 * draws every square a run passes, so each one is recorded as visited. */
static const char controlled_options[] =
    "!autopickup,!bones,!legacy,!news,!mail,!splash_screen,!sparkle,"
    "!checkpoint,!cmdassist,!rest_on_space,!number_pad,!tombstone,"
    "!autodig,!autoquiver,color,time,showexp,showscore,"
    "pickup_burden:unencumbered,runmode:walk,!mention_walls,"
    "suppress_alert:3.4.3";

/* splitmix64: a mixer separate from NetHack's RNG streams, so choosing the
 * character and the name never consumes game randomness. */
static unsigned long long mix(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int index_of(const char *name, int kind)
{
    int i;
    if (!name) return ROLE_NONE;
    switch (kind) {
    case 0:
        for (i = 0; roles[i].name.m; i++)
            if (!strcmpi(roles[i].name.m, name)) return i;
        break;
    case 1:
        for (i = 0; races[i].noun; i++)
            if (!strcmpi(races[i].noun, name)) return i;
        break;
    case 2:
        for (i = 0; i < ROLE_GENDERS; i++)
            if (!strcmpi(genders[i].adj, name)) return i;
        break;
    case 3:
        for (i = 0; i < ROLE_ALIGNS; i++)
            if (!strcmpi(aligns[i].adj, name)) return i;
        break;
    }
    return ROLE_NONE;
}

/* Fill unspecified role/race/gender/alignment from the seed, among the
 * combinations NetHack allows with the specified ones. Returns 0, or -1
 * when the explicit choices are incompatible. */
static int choose_character(const nnh_request *req, unsigned long long seed)
{
    unsigned long long st = seed ^ 0x6E6E682D63686172ULL; /* "nnh-char" */
    int role = index_of(nnh_param_str(req, "role"), 0);
    int race = index_of(nnh_param_str(req, "race"), 1);
    int gend = index_of(nnh_param_str(req, "gender"), 2);
    int algn = index_of(nnh_param_str(req, "alignment"), 3);
    int tries, n_roles = 0, n_races = 0;
    while (roles[n_roles].name.m) n_roles++;
    while (races[n_races].noun) n_races++;
    for (tries = 0; tries < 4096; tries++) {
        int r = role != ROLE_NONE ? role : (int) (mix(&st) % (unsigned) n_roles);
        int a = race != ROLE_NONE ? race : (int) (mix(&st) % (unsigned) n_races);
        int g = gend != ROLE_NONE ? gend : (int) (mix(&st) % ROLE_GENDERS);
        int l = algn != ROLE_NONE ? algn : (int) (mix(&st) % ROLE_ALIGNS);
        if (validrole(r) && validrace(r, a) && validgend(r, a, g) && validalign(r, a, l)) {
            flags.initrole = r;
            flags.initrace = a;
            flags.initgend = g;
            flags.initalign = l;
            return 0;
        }
        if (role != ROLE_NONE && race != ROLE_NONE && gend != ROLE_NONE && algn != ROLE_NONE) break;
    }
    return -1;
}

static void generated_name(unsigned long long seed, char *out)
{
    static const char *const first[] = { "Ada", "Brin", "Cora", "Dain", "Edda", "Fenn",
        "Gale", "Hild", "Ivo", "Juna", "Kell", "Lorn", "Mira", "Nils", "Orla", "Pim",
        "Quill", "Rhea", "Sorn", "Tove", "Ulf", "Vega", "Wren", "Yara", "Zed" };
    static const char *const second[] = { "", "a", "en", "is", "or", "wyn", "ric", "ette" };
    unsigned long long st = seed ^ 0x6E6E682D6E616D65ULL; /* "nnh-name" */
    unsigned long long v = mix(&st);
    Sprintf(out, "%s%s", first[v % SIZE(first)], second[(v >> 16) % SIZE(second)]);
}

/* The seed the options code gives NetHack's RNGs (hacklib.c init_random). */
unsigned long sys_random_seed(void)
{
    return (unsigned long) nnh.seed;
}

time_t nnh_clock_now(void)
{
    return (time_t) nnh.created_at;
}

/* Wizard mode is a debug fixture chosen explicitly by session.create. */
boolean authorize_wizard_mode(void)
{
    return nnh.wizard_mode ? TRUE : FALSE;
}

boolean check_user_string(char *optstr) { return TRUE; }
/* No shell escapes or job control: an agent's game has no terminal. */
int dosh(void) { return 0; }
int dosuspend(void) { return 0; }
void intron(void) {}
void introff(void) {}

/* NetHack's fatal-error exit (unixtty.c in the tty build): report it as a
 * message and end through nh_terminate(), whose hook keeps the host alive. */
void error(const char *fmt, ...)
{
    char buf[BUFSZ];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    fprintf(stderr, "nhdriver: NetHack error: %s\n", buf);
    nnh_event_heard(buf);
    nh_terminate(EXIT_FAILURE);
}

/* File names from player names: keep them to a safe alphabet. */
void regularize(char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char) *s) && *s != '_' && *s != '-') *s = '_';
}
void sethanguphandler(void (*handler)(int)) {}
void port_help(void) {}
void append_slash(char *name)
{
    size_t len = strlen(name);
    if (len && name[len - 1] != '/') Strcat(name, "/");
}

/* Start NetHack for a validated session.create. Returns -1 (after writing
 * a typed error, with nothing started) when the explicit character choices
 * are incompatible; otherwise it never returns. */
int nnh_start_game(const nnh_request *req)
{
    static char options[1024];
    unsigned char random_seed[4];
    char *argv[] = { "nethack", NULL };
    int argc = 1;

    if (nnh_param_node(req, "seed") >= 0) {
        nnh.seed = nnh_param_int(req, "seed", 0);
    } else {
        nnh_io_random_bytes(random_seed, 4);
        nnh.seed = ((long long) random_seed[0] << 24) | (random_seed[1] << 16)
                   | (random_seed[2] << 8) | random_seed[3];
    }
    nnh.created_at = nnh_param_node(req, "createdAt") >= 0 ? nnh_param_int(req, "createdAt", 0)
                                                           : nnh_io_wall_clock();
    nnh.wizard_mode = nnh_param_bool(req, "wizard", 0);
    if (choose_character(req, (unsigned long long) nnh.seed)) {
        nnh_buf_cstr(&nnh.out, "{\"version\":1,\"error\":{\"code\":\"incompatibleCharacter\","
                               "\"field\":\"role\",\"message\":\"NetHack does not allow this "
                               "role/race/gender/alignment combination\"}}\n");
        nnh_io_write_response(nnh.out.data, (int) nnh.out.len);
        nnh_buf_reset(&nnh.out);
        return -1;
    }

    hname = "nethack";
    hackpid = 1; /* fixed: the pid must not influence anything */
    windowprocs = nnh_procs;
    if (nnh_playground_enter()) {
        raw_print("cannot prepare the game directory");
        exit(EXIT_FAILURE);
    }
    Sprintf(options, "%s", controlled_options);
    setenv("NETHACKOPTIONS", options, 1);
    unsetenv("HACKOPTIONS");
    unsetenv("NETHACKDIR");
    unsetenv("HACKDIR");

    initoptions();
    u.uhp = 1; /* prevent RIP on early quits */
    init_nhwindows(&argc, argv);
    iflags.status_updates = FALSE; /* vitals are read at each boundary */
    wizard = nnh.wizard_mode ? TRUE : FALSE;
    set_playmode();
    if (nnh_param_str(req, "name")) Strcpy(plname, nnh_param_str(req, "name"));
    else generated_name((unsigned long long) nnh.seed, plname);
    (void) choose_character(req, (unsigned long long) nnh.seed); /* initoptions reset the flags */
    Strcpy(lock, "game");
    dlb_init();
    vision_init();
    display_gamewindows();
    nnh.started = 1;
    nnh_pickup_defaults(); /* after the options, before the first pickup */
    if (nnh_param_node(req, "automaticPickup") >= 0)
        nnh_pickup_configure_from(req->doc, nnh_param_node(req, "automaticPickup"));
    newgame();
    /* creation spends no turn and moves nobody: measure from here */
    nnh.op_start_moves = moves;
    nnh.op_start_x = u.ux;
    nnh.op_start_y = u.uy;
    nnh.op_start_level = ledger_no(&u.uz);
    moveloop(0);
    return 0; /* not reached: the game ends through nh_terminate() */
}

/* really_done(): every bonus is in u.urexp now. */
void nnh_hook_final(int how)
{
    nnh.end_how = how;
    nnh.end_score = u.urexp;
    nnh.end_turn = moves;
    formatkiller(nnh.end_death, sizeof nnh.end_death, how, TRUE);
}

void nnh_hook_terminate(int status)
{
    nnh.ended = 1;
    nnh_serve_forever();
}

int main(int argc, char **argv)
{
    nnh_buf_init(&nnh.out);
    nnh_buf_init(&nnh.events);
    nnh.hint = (enum nnh_boundary) -1;
    nnh.pending.ext_command = -1;
    nnh.end_how = -1;
    nnh_wait_for_create();
    return 0;
}
