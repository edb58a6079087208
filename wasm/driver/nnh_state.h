/* nnh_state.h - the semantic driver's shared state and module interfaces.
 *
 * The driver is single-threaded and owns one game per process (native) or
 * per WebAssembly instance. NetHack calls into the window port (port_*.c);
 * when the game needs input and none is queued, the port asks the boundary
 * (proto_boundary.c) for the next request. The boundary answers the
 * in-flight request with a response built by obs_*.c, then reads requests
 * until one supplies input. Everything else here is data those modules
 * share. */
#ifndef NNH_STATE_H
#define NNH_STATE_H

#include "json_write.h"
#include "nnh_vocabulary.h"

#define NNH_COLS 80
#define NNH_ROWS 21
#define NNH_MAX_OPTIONS 128
#define NNH_LABEL_MAX 256
#define NNH_MAX_LEDGERS 128
#define NNH_RECENT_MESSAGES 10

/* enum nnh_boundary, what the engine is waiting for: nnh_vocabulary.h */

/* Queued input. A key tagged for a prompt kind is consumed only by that
 * kind of prompt ("initial item/direction arguments answer only their first
 * matching selection"); untagged keys go to whatever reads next. */
enum nnh_key_for { NNH_FOR_ANY = 0, NNH_FOR_ITEM, NNH_FOR_DIRECTION,
                   NNH_FOR_HAND /* the ring-finger question: "Right or Left?" */ };

typedef struct {
    int id;                        /* integer choice ID published */
    char name[NNH_LABEL_MAX];      /* displayed label */
    char group[64];                /* menu header above it, if any */
    int key;                       /* engine key (yn letters) */
    int preselected;
    long identifier;               /* menu anything.a_int / pointer bits */
    const void *identifier_ptr;
} nnh_option;

typedef struct {
    int active;
    int serial;                    /* decision-<serial> */
    enum nnh_boundary kind;
    char prompt[NNH_LABEL_MAX];
    char choices[64];              /* yn_function choices */
    int default_key;
    int menu_how;                  /* PICK_ONE / PICK_ANY for menus */
    int is_menu;
    int n_options;
    nnh_option options[NNH_MAX_OPTIONS];
    char item_letters[64];         /* getobj's offered letters */
    int counted;                   /* getobj accepts a count */
    int cursor_x, cursor_y;        /* getpos cursor */
    int key_prompt;                /* text decision standing for a bare key */
} nnh_decision;

/* Pending answers handed from the boundary to the window port. */
typedef struct {
    int have_menu;
    int menu_cancel;
    int menu_count;
    int menu_ids[NNH_MAX_OPTIONS];
    long menu_qty[NNH_MAX_OPTIONS];
    int have_text;
    char text[256];
    int have_click;
    int click_x, click_y;
    int ext_command;               /* index into extcmdlist, or -1 */
} nnh_pending;

typedef struct {
    /* session */
    char session_id[65];
    char request_id[129];
    char action[32];
    long long seed;
    long long created_at;
    int wizard_mode;
    int started;                   /* NetHack has been initialised */
    int ended;
    int end_how;
    long end_score;
    long end_turn;
    char end_death[256];
    long revision;
    int decision_serial;
    nnh_decision decision;
    nnh_pending pending;
    enum nnh_boundary hint;        /* set by nnh_hook_prompt */
    char hint_detail[64];
    int hint_x, hint_y;
    int hint_counted;              /* getobj's allowcnt */
    /* the in-flight operation */
    int in_flight;
    int quiet;                     /* answer the in-flight request minimally */
    long op_start_moves;
    int op_start_x, op_start_y, op_start_level;
    int op_requested_turns;
    int op_count_stopped;          /* nnh_hook_interrupted(0) during the operation */
    int op_occupation_stopped;     /* nnh_hook_interrupted(1) during the operation */
    /* output */
    nnh_buf out;
    nnh_buf events;
    int n_events;
    char recent[NNH_RECENT_MESSAGES][NNH_LABEL_MAX];
    int n_recent;
    /* text window capture */
} nnh_driver;

/* The one driver state, defined and initialised by the lifecycle
 * (nnh_main.c). */
extern nnh_driver nnh;

/* port_keys.c: the typed key queue. */
void nnh_keys_clear(void);
void nnh_keys_push(int key, enum nnh_key_for kind);
int nnh_keys_pop(enum nnh_key_for kind, int *key);
int nnh_keys_pending(void);
int nnh_keys_counting(void);

/* port_map.c: what the map window was shown, plus terrain memory. */
void nnh_map_reset_window(void);
void nnh_map_print_glyph(int x, int y, int glyph);
void nnh_map_note_level(int ledger);
void nnh_map_encode(nnh_buf *b, int full);
void nnh_map_mark_sent(void);
void nnh_map_entities(nnh_buf *b);

/* port_doors.c: witnessed door locks, per level. */
void nnh_doors_write(nnh_buf *b);

/* port_window.c */
extern struct window_procs nnh_procs;

/* proto_boundary.c: the input boundary. nnh_await_input() publishes the
 * boundary, answers the in-flight request and returns once a request
 * supplied input; nnh_serve_forever() answers requests after the game
 * ended; nnh_wait_for_create() answers requests until a session.create
 * starts a game. The last two never return. */
void nnh_await_input(enum nnh_boundary kind);
void nnh_serve_forever(void);
void nnh_wait_for_create(void);

/* obs_build.c */
void nnh_obs_write(nnh_buf *b, int full_world);
void nnh_decision_write(nnh_buf *b);
void nnh_end_write(nnh_buf *b);

/* obs_items.c */
struct obj;
void nnh_item_write(nnh_buf *b, struct obj *o, int carried);
/* The inventory array; its text is reused while its inputs are unchanged
 * (obs_reuse.h). */
void nnh_inventory_write(nnh_buf *b);
int nnh_letters_hands(const char *spec);
int nnh_letters_offer(const char *spec, char letter);

/* item_query.c: how many carried items a perceived-name query names; with
 * exactly one, *found is it. */
int nnh_item_named(const char *query, struct obj **found);


#endif
