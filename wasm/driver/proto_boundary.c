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
#include "proto_request.h"
#include <ctype.h>

#define NNH_CTRL(c) (0x1f & (c))

nnh_driver nnh;

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

/* "blocked" describes a step or wait that achieved nothing; a zero-time
 * answer or a free action (a wish, a declined quit) simply completed. */
static int is_movement(const char *action)
{
    static const char *const movement[] = { "move", "run", "moveWithoutAttack", "attack",
                                            "climb", "wait", "search", "rest", NULL };
    int i;
    for (i = 0; movement[i]; i++)
        if (!strcmp(action, movement[i])) return 1;
    return 0;
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
        if (nnh.ended) nnh_buf_jstr(b, "ended");
        else if (nnh.decision.active) nnh_buf_jstr(b, "decision");
        else if (!strcmp(nnh.action, "create")) nnh_buf_jstr(b, "completed");
        else if (nnh.op_requested_turns > 1 && turns < nnh.op_requested_turns && !moved)
            nnh_buf_jstr(b, "interrupted");
        else if (turns == 0 && !moved && is_movement(nnh.action)) nnh_buf_jstr(b, "blocked");
        else nnh_buf_jstr(b, "completed");
        nnh_buf_cstr(b, ",\"turnsElapsed\":");
        nnh_buf_int(b, turns);
        nnh_buf_cstr(b, moved ? ",\"positionChanged\":true}" : ",\"positionChanged\":false}");
    }
    if (is_observe || !strcmp(nnh.action, "create")) {
        nnh_buf_cstr(b, ",\"session\":");
        session_metadata(b);
    }
    /* A quiet response (replay) carries what verification needs — revision,
     * outcome, decision, end — and skips the observation and events. The
     * map keeps its changed rows for the next full response. */
    if (!(nnh.quiet && !is_observe)) {
        nnh_buf_cstr(b, ",\"observation\":");
        nnh_obs_write(b, is_observe || !strcmp(nnh.action, "create"));
        nnh_buf_cstr(b, ",\"events\":[");
        if (!is_observe) nnh_buf_raw(b, nnh.events.data ? nnh.events.data : "", nnh.events.len);
        nnh_buf_char(b, ']');
    }
    nnh_buf_cstr(b, ",\"decision\":");
    nnh_decision_write(b);
    nnh_buf_cstr(b, nnh.ended ? ",\"ended\":true,\"end\":" : ",\"ended\":false,\"end\":null");
    if (nnh.ended) nnh_end_write(b);
    nnh_buf_char(b, '}');
    write_out();
    if (!is_observe) {
        nnh_buf_reset(&nnh.events);
        nnh.n_events = 0;
    }
}

/* Answer the in-flight operation; a full response resets the map's
 * changed-row tracking, a quiet one leaves it for the next full one. */
static void finish_operation(void)
{
    state_response(nnh.request_id, 0);
    if (!nnh.quiet) nnh_map_mark_sent();
    nnh.in_flight = 0;
    nnh.quiet = 0;
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
    const char *name = req->method->name;
    if (!strcmp(name, "protocol.describe")) {
        nnh_describe_write(&nnh.out);
        write_out();
        return 1;
    }
    if (!strcmp(name, "session.create")) {
        error_response(NULL, nnh.started ? "sessionExists" : "invalidState", NULL,
                       "this engine already hosts a game; start a new engine", 0);
        return 1;
    }
    if (!strcmp(name, "session.observe")) {
        if (check_session(req)) return 1;
        state_response(NULL, 1);
        return 1;
    }
    if (!strcmp(name, "session.close")) {
        if (check_session(req)) return 1;
        nnh_buf_cstr(&nnh.out, "{\"version\":1,\"sessionId\":");
        nnh_buf_jstr(&nnh.out, nnh.session_id);
        nnh_buf_cstr(&nnh.out, ",\"closed\":true}");
        write_out();
        nnh_io_write_response(NULL, 0); /* flush */
        exit(EXIT_SUCCESS);
    }
    return 0;
}

/* ---- translating requests into input ------------------------------------ */

static int reject(const nnh_request *req, const char *code, const char *field, const char *msg)
{
    error_response(nnh_param_str(req, "requestId"), code, field, msg, 1);
    return -1;
}

static struct obj *item_by_id(const char *id)
{
    unsigned o_id;
    struct obj *o;
    if (!nnh_item_lookup(id, &o_id)) return NULL;
    for (o = invent; o; o = o->nobj)
        if (o->o_id == o_id) return o;
    return NULL;
}

static void push_count(long n)
{
    char digits[16];
    int i;
    if (n <= 1) return;
    Sprintf(digits, "%ld", n);
    for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], NNH_FOR_ANY);
}

static int ext_command_index(const char *name)
{
    int i;
    for (i = 0; extcmdlist[i].ef_txt; i++)
        if (!strcmp(extcmdlist[i].ef_txt, name)) return i;
    return -1;
}

/* Queue the keys of a gameplay command. Returns 0, or -1 after writing a
 * typed error (nothing queued). */
static int translate_command(const nnh_request *req)
{
    const char *m = req->method->name + 5; /* after "game." */
    const char *dir = nnh_param_str(req, "direction");
    const char *item = nnh_param_str(req, "itemId");
    struct obj *obj = NULL;
    int key = dir ? nnh_direction_key(dir, 1) : 0;

    if (item && !(obj = item_by_id(item)))
        return reject(req, "unknownItem", "itemId", "no carried item has this ID");
    nnh.op_requested_turns = 0;
    if (!strcmp(m, "move")) {
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "run")) {
        const char *mode = nnh_param_str(req, "mode");
        int no_pickup = nnh_param_bool(req, "noPickup", 0);
        int normal = !mode || !strcmp(mode, "normal");
        /* NetHack 3.6.7 has one no-pickup run: M + direction (mode 1). */
        if (no_pickup && !normal)
            return reject(req, "outOfRange", "noPickup",
                          "NetHack 3.6.7 runs without pickup only in mode normal");
        if (no_pickup) {
            nnh_keys_push('M', NNH_FOR_ANY);
            nnh_keys_push(key, NNH_FOR_ANY);
        } else if (normal) {
            nnh_keys_push(toupper(key), NNH_FOR_ANY);
        } else {
            nnh_keys_push(!strcmp(mode, "untilInteresting") ? 'g' : 'G', NNH_FOR_ANY);
            nnh_keys_push(key, NNH_FOR_ANY);
        }
    } else if (!strcmp(m, "moveWithoutAttack")) {
        nnh_keys_push('m', NNH_FOR_ANY);
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "attack")) {
        /* parse() reads F's direction itself, as part of the command */
        nnh_keys_push('F', NNH_FOR_ANY);
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "wait")) {
        nnh_keys_push('.', NNH_FOR_ANY);
    } else if (!strcmp(m, "search") || !strcmp(m, "rest")) {
        long turns = (long) nnh_param_int(req, "turns", 1);
        nnh.op_requested_turns = (int) turns;
        push_count(turns);
        nnh_keys_push(m[0] == 's' ? 's' : '.', NNH_FOR_ANY);
    } else if (!strcmp(m, "climb")) {
        nnh_keys_push(key, NNH_FOR_ANY);
    } else if (!strcmp(m, "pickup")) {
        nnh_keys_push(',', NNH_FOR_ANY);
    } else if (!strcmp(m, "drop") || !strcmp(m, "eat") || !strcmp(m, "apply")
               || !strcmp(m, "read")) {
        long qty = (long) nnh_param_int(req, "quantity", 0);
        if (qty && obj && qty > obj->quan)
            return reject(req, "outOfRange", "quantity", "more than the carried stack");
        if (qty && !obj)
            return reject(req, "missingField", "itemId", "a quantity needs an itemId");
        nnh_keys_push(m[0] == 'd' ? 'd' : m[0] == 'e' ? 'e' : m[0] == 'a' ? 'a' : 'r', NNH_FOR_ANY);
        if (obj) {
            if (qty && qty < obj->quan) {
                /* getobj takes the first digit at its item prompt, then
                 * get_count() reads the rest as plain keys */
                char digits[16];
                int i;
                Sprintf(digits, "%ld", qty);
                for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], i ? NNH_FOR_ANY : NNH_FOR_ITEM);
                nnh_keys_push(obj->invlet, NNH_FOR_ANY);
            } else {
                nnh_keys_push(obj->invlet, NNH_FOR_ITEM);
            }
        }
    } else if (!strcmp(m, "open") || !strcmp(m, "close") || !strcmp(m, "kick")) {
        nnh_keys_push(m[0] == 'o' ? 'o' : m[0] == 'c' ? 'c' : NNH_CTRL('d'), NNH_FOR_ANY);
        if (key) nnh_keys_push(key, NNH_FOR_DIRECTION);
    } else if (!strcmp(m, "engrave")) {
        nnh_keys_push('E', NNH_FOR_ANY);
    } else if (!strcmp(m, "pray") || !strcmp(m, "quit")) {
        nnh.pending.ext_command = ext_command_index(m);
        nnh_keys_push('#', NNH_FOR_ANY);
    } else if (!strcmp(req->method->name, "debug.wizard")) {
        const char *c = nnh_param_str(req, "command");
        if (!wizard)
            return reject(req, "notWizard", "command", "only wizard-mode fixture sessions accept debug commands");
        nnh_keys_push(!strcmp(c, "wish") ? NNH_CTRL('w') : !strcmp(c, "teleport") ? NNH_CTRL('t')
                      : !strcmp(c, "map") ? NNH_CTRL('f') : !strcmp(c, "identify") ? NNH_CTRL('i')
                      : !strcmp(c, "levelTeleport") ? NNH_CTRL('v') : NNH_CTRL('g'), NNH_FOR_ANY);
    }
    return 0;
}

static int option_ids_valid(const nnh_request *req, int choose)
{
    const nnh_json_doc *doc = req->doc;
    int c;
    for (c = nnh_json_node_at(doc, choose)->first_child; c >= 0;
         c = nnh_json_node_at(doc, c)->next_sibling)
        if (nnh_json_node_at(doc, c)->int_val >= nnh.decision.n_options) return 0;
    return 1;
}

/* Turn decision.answer into pending input. Returns 0 or -1 (error written). */
static int translate_answer(const nnh_request *req)
{
    const nnh_json_doc *doc = req->doc;
    int a = nnh_param_node(req, "answer");
    const char *kind = nnh_json_node_at(doc, nnh_json_member(doc, a, "kind"))->str;
    nnh_decision *d = &nnh.decision;
    static const char *const kind_names[] = { "command", "confirmation", "choice", "text",
                                              "direction", "item", "position" };
    if (strcmp(kind, kind_names[d->kind]))
        return reject(req, "wrongAnswerKind", "answer", "the answer kind does not match the standing decision");
    switch (d->kind) {
    case NNH_AT_CONFIRMATION:
        nnh_keys_push(nnh_json_node_at(doc, nnh_json_member(doc, a, "confirm"))->bool_val ? 'y' : 'n',
                      NNH_FOR_ANY);
        break;
    case NNH_AT_CHOICE: {
        int choose = nnh_json_member(doc, a, "choose"), c, n = 0;
        if (!option_ids_valid(req, choose))
            return reject(req, "unknownChoice", "choose", "a choice ID is not offered by this decision");
        if (!d->is_menu || d->menu_how == PICK_ONE) {
            if (nnh_json_node_at(doc, choose)->child_count != 1)
                return reject(req, "outOfRange", "choose", "this decision takes exactly one choice");
        }
        if (!d->is_menu) {
            int id = (int) nnh_json_node_at(doc, nnh_json_node_at(doc, choose)->first_child)->int_val;
            nnh_keys_push(d->options[id].key, NNH_FOR_ANY);
            break;
        }
        for (c = nnh_json_node_at(doc, choose)->first_child; c >= 0;
             c = nnh_json_node_at(doc, c)->next_sibling) {
            nnh.pending.menu_ids[n] = (int) nnh_json_node_at(doc, c)->int_val;
            nnh.pending.menu_qty[n] = -1;
            n++;
        }
        nnh.pending.menu_count = n;
        nnh.pending.menu_cancel = 0;
        nnh.pending.have_menu = 1;
        break;
    }
    case NNH_AT_TEXT: {
        const char *text = nnh_json_node_at(doc, nnh_json_member(doc, a, "text"))->str;
        if (d->key_prompt) {
            if (strlen(text) != 1)
                return reject(req, "outOfRange", "text", "this prompt takes exactly one character");
            nnh_keys_push((unsigned char) text[0], NNH_FOR_ANY);
        } else {
            Strcpy(nnh.pending.text, text);
            nnh.pending.have_text = 1;
        }
        break;
    }
    case NNH_AT_DIRECTION:
        nnh_keys_push(nnh_direction_key(nnh_json_node_at(doc, nnh_json_member(doc, a, "direction"))->str, 1),
                      NNH_FOR_ANY);
        break;
    case NNH_AT_ITEM: {
        int item = nnh_json_member(doc, a, "item"), qty = nnh_json_member(doc, a, "quantity");
        struct obj *obj = NULL;
        if (item >= 0) {
            const char *id = nnh_json_node_at(doc, nnh_json_member(doc, item, "id"))->str;
            if (!(obj = item_by_id(id)))
                return reject(req, "unknownItem", "item", "no carried item has this ID");
        } else if (!index(d->item_letters, '-')) {
            return reject(req, "outOfRange", "hands", "this question does not offer hands");
        }
        if (qty >= 0) {
            long q = (long) nnh_json_node_at(doc, qty)->int_val;
            if (!d->counted)
                return reject(req, "outOfRange", "quantity", "this question takes no count");
            if (!obj || q > obj->quan)
                return reject(req, "outOfRange", "quantity", "quantity exceeds the carried stack");
            if (q < obj->quan) {
                char digits[16];
                int i;
                Sprintf(digits, "%ld", q);
                for (i = 0; digits[i]; i++) nnh_keys_push(digits[i], NNH_FOR_ANY);
            }
        }
        nnh_keys_push(obj ? obj->invlet : '-', NNH_FOR_ANY);
        break;
    }
    case NNH_AT_POSITION: {
        int p = nnh_json_member(doc, a, "position");
        const nnh_json_node *pn = nnh_json_node_at(doc, p);
        if (pn->kind == NNH_JSON_OBJECT) {
            nnh.pending.click_x = (int) nnh_json_node_at(doc, nnh_json_member(doc, p, "x"))->int_val;
            nnh.pending.click_y = (int) nnh_json_node_at(doc, nnh_json_member(doc, p, "y"))->int_val;
            nnh.pending.have_click = 1;
        } else if (!strcmp(pn->str, "help")) {
            nnh_keys_push('?', NNH_FOR_ANY);
        } else if (!strcmp(pn->str, "finish")) {
            nnh_keys_push('.', NNH_FOR_ANY);
        } else {
            nnh_keys_push(nnh_direction_key(pn->str, 0), NNH_FOR_ANY);
        }
        break;
    }
    case NNH_AT_COMMAND:
        break;
    }
    return 0;
}

static void translate_cancel(void)
{
    if (nnh.decision.is_menu) {
        nnh.pending.menu_cancel = 1;
        nnh.pending.menu_count = 0;
        nnh.pending.have_menu = 1;
    } else if (nnh.decision.kind == NNH_AT_TEXT && !nnh.decision.key_prompt) {
        Strcpy(nnh.pending.text, "\033");
        nnh.pending.have_text = 1;
    } else {
        nnh_keys_push('\033', NNH_FOR_ANY);
    }
}

/* Validate state-dependent conditions and queue input. Returns 1 when the
 * request was accepted (revision advanced), 0 after an error response. */
static int accept_input(const nnh_request *req)
{
    const char *request_id = nnh_param_str(req, "requestId");
    long long expected = nnh_param_int(req, "expectedRevision", -1);
    int continuation = req->method->klass == NNH_CONTINUATION;
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
    if (!continuation) {
        if (translate_command(req)) { nnh_keys_clear(); nnh.pending.ext_command = -1; return 0; }
    } else if (!strcmp(req->method->name, "decision.answer")) {
        if (translate_answer(req)) { nnh_keys_clear(); memset(&nnh.pending, 0, sizeof nnh.pending); nnh.pending.ext_command = -1; return 0; }
    } else {
        translate_cancel();
    }
    /* accepted: from here on the engine sees input */
    nnh.revision++;
    Strcpy(nnh.request_id, request_id);
    Strcpy(nnh.action, continuation ? (req->method->name[9] == 'a' ? "answer" : "cancel")
                                    : strchr(req->method->name, '.') + 1);
    nnh.in_flight = 1;
    nnh.quiet = nnh_param_bool(req, "quiet", 0);
    nnh.decision.active = 0;
    nnh.op_start_moves = moves;
    nnh.op_start_x = u.ux;
    nnh.op_start_y = u.uy;
    nnh.op_start_level = ledger_no(&u.uz);
    nnh_buf_reset(&nnh.events);
    nnh.n_events = 0;
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
    if (kind == NNH_AT_COMMAND) {
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
    if (nnh.in_flight) finish_operation();
    for (;;) serve_until_input();
}

/* ---- session.create ------------------------------------------------------ */

int nnh_start_game(const nnh_request *req); /* nnh_main.c */

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
        if (!strcmp(req.method->name, "protocol.describe")) {
            handle_lifecycle(&req);
            continue;
        }
        if (strcmp(req.method->name, "session.create")) {
            error_response(nnh_param_str(&req, "requestId"), "noSession", "sessionId",
                           "no game has been created", 0);
            continue;
        }
        if (nnh_param_str(&req, "sessionId")) Strcpy(nnh.session_id, nnh_param_str(&req, "sessionId"));
        else mint_session_id(nnh.session_id);
        Strcpy(harness_name, nnh_param_str(&req, "harness_name") ? nnh_param_str(&req, "harness_name") : "");
        Strcpy(model_name, nnh_param_str(&req, "model_name") ? nnh_param_str(&req, "model_name") : "");
        Strcpy(nnh.action, "create");
        nnh.in_flight = 1;
        (void) nnh_start_game(&req); /* returns only when nothing started */
        nnh.in_flight = 0;
    }
}
