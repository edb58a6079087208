/* nnh_state.h - the semantic driver's shared state.
 *
 * The driver is single-threaded and owns one game per process (native) or
 * per WebAssembly instance. NetHack calls into the window port (port_*.c);
 * when the game needs input and none is queued, the port asks the boundary
 * (proto_boundary.c) for the next request. The boundary answers the
 * in-flight request with a response built by obs_*.c, then reads requests
 * until one supplies input. This header holds only the data those modules
 * share; each module declares its functions in its own header. */
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
    int delta;                     /* elide members the host has (obs_delta.h) */
    long op_start_moves;
    int op_start_x, op_start_y, op_start_level;
    int op_requested_turns;
    int op_count_stopped;          /* nnh_hook_interrupted(0) during the operation */
    int op_occupation_stopped;     /* nnh_hook_interrupted(1) during the operation */
    int op_method;                 /* its nnh_method_id (proto_request.h) */
    int op_movement;               /* a step or wait: "blocked" when it achieved nothing */
    /* output */
    nnh_buf out;
    nnh_buf events;
    int n_events;
    char recent[NNH_RECENT_MESSAGES][NNH_LABEL_MAX];
    int n_recent;
    unsigned long recent_changes;  /* counts changes to recent[]: its section's key */
    /* text window capture */
} nnh_driver;

/* The one driver state, defined and initialised by the lifecycle
 * (nnh_main.c). */
extern nnh_driver nnh;

#endif
