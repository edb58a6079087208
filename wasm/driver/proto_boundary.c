/* proto_boundary.c - the single input boundary between requests and NetHack.
 *
 * Invariant: the engine is either running NetHack code (exactly one
 * operation in flight) or parked inside nnh_await_input() waiting for a
 * request. Lifecycle requests (observe, describe, close) are answered while
 * parked and never send input, spend turns, draw random numbers or change
 * the revision. A gameplay or decision request is validated completely —
 * shape, session, revision, gate, decision ID, answer kind, item IDs —
 * before any key is queued; only then does the revision advance and
 * control return to NetHack. The response to that request is written at
 * the next boundary (or at the end of the game). */
#include "hack.h"
#include "func_tab.h"
#include "nnh_state.h"
#include "obs_events.h"
#include "item_ids.h"
#include "proto_request.h"
#include "nnh_main.h"
#include "nnh_io.h"
#include "proto_translate.h"
#include "proto_boundary.h"
#include "lore_lookup.h"
#include "obs_build.h"
#include "obs_delta.h"
#include "port_keys.h"
#include "port_map.h"

static nnh_json_doc request_doc;
static char line[NNH_JSON_MAX_INPUT + 2];

/* ---- responses --------------------------------------------------------- */

static void write_out(void)
{
    nnh_buf_char(&nnh.out, '\n');
    nnh_io_write_response(nnh.out.data, (int) nnh.out.len);
    nnh_buf_reset(&nnh.out);
}

static void error_response(const char *request_id, const char *code, const char *field,
                           const char *message, int with_revision)
{
    nnh_buf *b = &nnh.out;
    nnh_buf_cstr(b, "{\"version\":1");
    if (request_id) {
        nnh_buf_cstr(b, ",\"requestId\":");
        nnh_buf_jstr(b, request_id);
    }
    if (with_revision) {
        nnh_buf_cstr(b, ",\"sessionId\":");
        nnh_buf_jstr(b, nnh.session_id);
        nnh_buf_cstr(b, ",\"revision\":");
        nnh_buf_int(b, nnh.revision);
    }
    nnh_buf_cstr(b, ",\"error\":{\"code\":");
    nnh_buf_jstr(b, code);
    if (field && *field) {
        nnh_buf_cstr(b, ",\"field\":");
        nnh_buf_jstr(b, field);
    }
    nnh_buf_cstr(b, ",\"message\":");
    nnh_buf_jstr(b, message);
    nnh_buf_cstr(b, "}}");
    write_out();
}

static void session_metadata(nnh_buf *b);

/* The in-flight operation's outcome.status. "blocked" describes a step or
 * wait that achieved nothing (nnh.op_movement); a zero-time answer or a
 * free action (a wish, a declined quit) simply completed. */
static enum nnh_status operation_status(long turns, int moved)
{
    if (nnh.ended) return NNH_STATUS_ENDED;
    if (nnh.decision.active) return NNH_STATUS_DECISION;
    if (nnh.op_method == NNH_M_CREATE) return NNH_STATUS_COMPLETED;
    if (nnh.op_requested_turns > 1 ? nnh.op_count_stopped : nnh.op_occupation_stopped)
        return NNH_STATUS_INTERRUPTED;
    if (turns == 0 && !moved && nnh.op_movement) return NNH_STATUS_BLOCKED;
    return NNH_STATUS_COMPLETED;
}

/* The full response shared by operations and observe. */
static void state_response(const char *request_id, int is_observe)
{
    nnh_buf *b = &nnh.out;
    int moved;
    nnh_buf_cstr(b, "{\"version\":1,\"sessionId\":");
    nnh_buf_jstr(b, nnh.session_id);
    if (request_id && *request_id) {
        nnh_buf_cstr(b, ",\"requestId\":");
        nnh_buf_jstr(b, request_id);
    }
    nnh_buf_cstr(b, ",\"revision\":");
    nnh_buf_int(b, nnh.revision);
    if (!is_observe) {
        long turns = moves - nnh.op_start_moves;
        moved = u.ux != nnh.op_start_x || u.uy != nnh.op_start_y
                || ledger_no(&u.uz) != nnh.op_start_level;
        nnh_buf_cstr(b, ",\"outcome\":{\"action\":");
        nnh_buf_jstr(b, nnh.action);
        nnh_buf_cstr(b, ",\"status\":");
        nnh_buf_jstr(b, nnh_status_names[operation_status(turns, moved)]);
        nnh_buf_cstr(b, ",\"turnsElapsed\":");
        nnh_buf_int(b, turns);
        nnh_buf_cstr(b, moved ? ",\"positionChanged\":true}" : ",\"positionChanged\":false}");
    }
    if (is_observe || nnh.op_method == NNH_M_CREATE) {
        nnh_buf_cstr(b, ",\"session\":");
        session_metadata(b);
    }
    /* A quiet response (replay) carries what verification needs — revision,
     * outcome, decision, end — and skips the observation and events. The
     * map keeps its changed rows for the next full response. */
    if (!(nnh.quiet && !is_observe)) {
        nnh_buf_cstr(b, ",\"observation\":");
        /* observe and create always answer in full: a host resynchronises there */
        nnh_delta_set_enabled(nnh.delta && !is_observe && nnh.op_method != NNH_M_CREATE);
        nnh_obs_write(b, is_observe || nnh.op_method == NNH_M_CREATE);
        nnh_buf_cstr(b, ",\"events\":[");
        if (!is_observe) nnh_events_write(b);
        nnh_buf_char(b, ']');
    }
    nnh_buf_cstr(b, ",\"decision\":");
    nnh_decision_write(b);
    nnh_buf_cstr(b, nnh.ended ? ",\"ended\":true,\"end\":" : ",\"ended\":false,\"end\":null");
    if (nnh.ended) nnh_end_write(b);
    nnh_buf_char(b, '}');
    write_out();
    if (!is_observe) nnh_events_reset();
}

/* Answer the in-flight operation; a full response resets the map's
 * changed-row tracking, a quiet one leaves it for the next full one. */
static void finish_operation(void)
{
    state_response(nnh.request_id, 0);
    if (!nnh.quiet) nnh_map_mark_sent();
    nnh.in_flight = 0;
    nnh.quiet = 0;
    nnh.delta = 0;
}

/* ---- session metadata ---------------------------------------------------- */

static char harness_name[121], model_name[121];

static void session_metadata(nnh_buf *b)
{
    nnh_buf_cstr(b, "{\"seed\":");
    nnh_buf_int(b, nnh.seed);
    nnh_buf_cstr(b, ",\"name\":");
    nnh_buf_jstr(b, plname);
    nnh_buf_cstr(b, ",\"role\":");
    nnh_buf_jstr(b, roles[flags.initrole].name.m);
    nnh_buf_cstr(b, ",\"race\":");
    nnh_buf_jstr(b, races[flags.initrace].noun);
    nnh_buf_cstr(b, ",\"gender\":");
    nnh_buf_jstr(b, genders[flags.initgend].adj);
    nnh_buf_cstr(b, ",\"alignment\":");
    nnh_buf_jstr(b, aligns[flags.initalign].adj);
    nnh_buf_cstr(b, ",\"createdAt\":");
    nnh_buf_int(b, nnh.created_at);
    nnh_buf_cstr(b, ",\"harness_name\":");
    nnh_buf_jstr(b, harness_name);
    nnh_buf_cstr(b, ",\"model_name\":");
    nnh_buf_jstr(b, model_name);
    nnh_buf_cstr(b, nnh.wizard_mode ? ",\"wizard\":true" : ",\"wizard\":false");
    nnh_buf_cstr(b, ",\"profile\":1}");
}

/* ---- request intake ------------------------------------------------------ */

/* Read one line; returns its length or -1 at EOF. */
static int next_line(void)
{
    return nnh_io_read_request(line, (int) sizeof line);
}

static int check_session(const nnh_request *req)
{
    const char *sid = nnh_param_str(req, "sessionId");
    if (!nnh.started) {
        error_response(nnh_param_str(req, "requestId"), "noSession", "sessionId",
                       "no game has been created", 0);
        return -1;
    }
    if (!sid || strcmp(sid, nnh.session_id)) {
        error_response(nnh_param_str(req, "requestId"), "unknownSession", "sessionId",
                       "this engine hosts a different session", 0);
        return -1;
    }
    return 0;
}

static void mint_session_id(char *out)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    unsigned char bytes[12];
    int i;
    nnh_io_random_bytes(bytes, 12); /* 96 random bits, independent of the seed */
    for (i = 0; i < 16; i++) {
        int bit = i * 6, v = 0, k;
        for (k = 0; k < 6; k++)
            v = (v << 1) | ((bytes[(bit + k) / 8] >> (7 - (bit + k) % 8)) & 1);
        out[i] = alphabet[v];
    }
    out[16] = 0;
}

/* Handle a lifecycle request while parked. Returns 1 if it was one. */
static int handle_lifecycle(const nnh_request *req)
{
    switch (req->method->id) {
    case NNH_M_DESCRIBE:
        nnh_describe_write(&nnh.out);
        write_out();
        return 1;
    case NNH_M_CREATE:
        error_response(NULL, nnh.started ? "sessionExists" : "invalidState", NULL,
                       "this engine already hosts a game; start a new engine", 0);
        return 1;
    case NNH_M_OBSERVE:
        if (check_session(req)) return 1;
        state_response(NULL, 1);
        return 1;
    case NNH_M_LOOKUP:
        if (check_session(req)) return 1;
        nnh_buf_cstr(&nnh.out, "{\"version\":1,\"sessionId\":");
        nnh_buf_jstr(&nnh.out, nnh.session_id);
        nnh_lore_write(&nnh.out, nnh_param_str(req, "name"));
        nnh_buf_char(&nnh.out, '}');
        write_out();
        return 1;
    case NNH_M_CLOSE:
        if (check_session(req)) return 1;
        nnh_buf_cstr(&nnh.out, "{\"version\":1,\"sessionId\":");
        nnh_buf_jstr(&nnh.out, nnh.session_id);
        nnh_buf_cstr(&nnh.out, ",\"closed\":true}");
        write_out();
        nnh_io_write_response(NULL, 0); /* flush */
        exit(EXIT_SUCCESS);
    default:
        return 0;
    }
}

static int reject(const nnh_request *req, const char *code, const char *field, const char *msg)
{
    error_response(nnh_param_str(req, "requestId"), code, field, msg, 1);
    return -1;
}

/* Validate state-dependent conditions and queue input. Returns 1 when the
 * request was accepted (revision advanced), 0 after an error response. */
static int accept_input(const nnh_request *req)
{
    const char *request_id = nnh_param_str(req, "requestId");
    long long expected = nnh_param_int(req, "expectedRevision", -1);
    int continuation = req->method->klass == NNH_CONTINUATION, refused = 0;
    nnh_rejection why;
    char decision_id[32];

    if (check_session(req)) return 0;
    if (nnh.ended) return reject(req, "gameEnded", NULL, "the game has ended; observe shows the result") + 1;
    if (expected != nnh.revision)
        return reject(req, "staleRevision", "expectedRevision", "expectedRevision is not the current revision") + 1;
    if (continuation) {
        if (!nnh.decision.active)
            return reject(req, "noDecision", "decisionId", "no decision is standing") + 1;
        Sprintf(decision_id, "decision-%d", nnh.decision.serial);
        if (strcmp(decision_id, nnh_param_str(req, "decisionId")))
            return reject(req, "decisionMismatch", "decisionId", "decisionId is not the standing decision") + 1;
    } else if (nnh.decision.active) {
        return reject(req, "decisionStanding", NULL, "answer or cancel the standing decision first") + 1;
    }
    nnh_keys_clear();
    if (!continuation) refused = nnh_translate_command(req, &why);
    else if (req->method->id == NNH_M_ANSWER) refused = nnh_translate_answer(req, &why);
    else nnh_translate_cancel();
    if (refused) {
        nnh_keys_clear();
        memset(&nnh.pending, 0, sizeof nnh.pending);
        nnh.pending.ext_command = -1;
        return reject(req, why.code, why.field, why.message) + 1;
    }
    /* accepted: from here on the engine sees input */
    nnh.revision++;
    Strcpy(nnh.request_id, request_id);
    Strcpy(nnh.action, strchr(req->method->name, '.') + 1); /* "move", "answer", "wizard" */
    nnh.in_flight = 1;
    nnh.quiet = nnh_param_bool(req, "quiet", 0);
    nnh.delta = nnh_param_bool(req, "delta", 0);
    nnh.op_method = req->method->id;
    nnh.op_movement = !continuation && nnh_method_moves(req->method);
    nnh.decision.active = 0;
    nnh.op_count_stopped = nnh.op_occupation_stopped = 0;
    nnh.op_start_moves = moves;
    nnh.op_start_x = u.ux;
    nnh.op_start_y = u.uy;
    nnh.op_start_level = ledger_no(&u.uz);
    nnh_events_reset();
    return 1;
}

/* Serve requests until one supplies input. EOF ends the process. */
static void serve_until_input(void)
{
    nnh_request req;
    int len;
    for (;;) {
        len = next_line();
        if (len < 0) exit(EXIT_SUCCESS);
        if (len == 0) continue; /* blank keep-alive lines are ignored */
        if (nnh_request_parse(&req, &request_doc, line, len)) {
            error_response(NULL, req.code, req.field, req.message, 0);
            continue;
        }
        if (req.method->klass == NNH_LIFECYCLE) {
            handle_lifecycle(&req);
            continue;
        }
        if (accept_input(&req) == 1) return;
    }
}

/* Called by the window port when NetHack needs input and nothing queued
 * fits: publish the boundary, answer the in-flight request, wait. */
void nnh_await_input(enum nnh_boundary kind)
{
    nnh_items_register();
    nnh_map_refresh_covered(); /* before any response: quiet or not, the same memory */
    if (kind == NNH_AT_COMMAND) {
        /* answers handed over with a command (an engraving's text, a
           spell's menu line) never outlive it */
        memset(&nnh.pending, 0, sizeof nnh.pending);
        nnh.pending.ext_command = -1;
        nnh.decision.active = 0;
    } else {
        nnh.decision.active = 1;
        nnh.decision.kind = kind;
        nnh.decision.serial = ++nnh.decision_serial;
    }
    if (nnh.in_flight) finish_operation();
    serve_until_input();
}

/* After the game ended: publish the result, then answer observe/close and
 * refuse input until EOF. Never returns. */
void nnh_serve_forever(void)
{
    nnh.decision.active = 0;
    nnh_items_register();
    nnh_map_refresh_covered();
    if (nnh.in_flight) finish_operation();
    for (;;) serve_until_input();
}

/* ---- session.create ------------------------------------------------------ */

/* Before NetHack starts: answer describe/errors until a session.create
 * that can start a game. Never returns. */
void nnh_wait_for_create(void)
{
    nnh_request req;
    int len;
    for (;;) {
        len = next_line();
        if (len < 0) exit(EXIT_SUCCESS);
        if (len == 0) continue;
        if (nnh_request_parse(&req, &request_doc, line, len)) {
            error_response(NULL, req.code, req.field, req.message, 0);
            continue;
        }
        if (req.method->id == NNH_M_DESCRIBE) {
            handle_lifecycle(&req);
            continue;
        }
        if (req.method->id != NNH_M_CREATE) {
            error_response(nnh_param_str(&req, "requestId"), "noSession", "sessionId",
                           "no game has been created", 0);
            continue;
        }
        if (nnh_param_str(&req, "sessionId")) Strcpy(nnh.session_id, nnh_param_str(&req, "sessionId"));
        else mint_session_id(nnh.session_id);
        Strcpy(harness_name, nnh_param_str(&req, "harness_name") ? nnh_param_str(&req, "harness_name") : "");
        Strcpy(model_name, nnh_param_str(&req, "model_name") ? nnh_param_str(&req, "model_name") : "");
        Strcpy(nnh.action, "create");
        nnh.op_method = NNH_M_CREATE;
        nnh.op_movement = 0;
        nnh.in_flight = 1;
        (void) nnh_start_game(&req); /* returns only when nothing started */
        nnh.in_flight = 0;
    }
}

/* A counted command or an occupation stopped early (nnh_hooks.h). */
void nnh_hook_interrupted(int occupation)
{
    if (!nnh.in_flight) return;
    if (occupation) nnh.op_occupation_stopped = 1;
    else nnh.op_count_stopped = 1;
}
