/* proto_request.h - low-protocol request grammar and its strict validation.
 *
 * A request is {"version":1,"method":M,"params":{...}}. Each method declares
 * its fields once in proto_request.c; validation rejects unknown, missing,
 * mistyped and out-of-range fields before anything reaches the engine. */
#ifndef PROTO_REQUEST_H
#define PROTO_REQUEST_H

#include "json_read.h"
#include "json_write.h"

enum nnh_method_class {
    NNH_LIFECYCLE = 0, /* describe, create, observe, lookup, close */
    NNH_GAMEPLAY,      /* sends input; needs requestId + expectedRevision */
    NNH_CONTINUATION   /* decision.answer / decision.cancel */
};

/* Every method, in the table's (and protocol.describe's) order. The
 * boundary and the translator dispatch on this, never on the name: the
 * translator's command table (proto_translate.c) has one row per id. */
enum nnh_method_id {
    NNH_M_DESCRIBE = 0, NNH_M_CREATE, NNH_M_OBSERVE, NNH_M_LOOKUP, NNH_M_CLOSE,
    NNH_M_MOVE, NNH_M_RUN, NNH_M_MOVE_WITHOUT_ATTACK, NNH_M_ATTACK, NNH_M_WAIT, NNH_M_SEARCH,
    NNH_M_REST, NNH_M_CLIMB, NNH_M_PICKUP, NNH_M_DROP, NNH_M_EAT, NNH_M_APPLY, NNH_M_READ,
    NNH_M_DRINK, NNH_M_WIELD, NNH_M_EQUIP, NNH_M_REMOVE, NNH_M_ZAP, NNH_M_THROW, NNH_M_FIRE,
    NNH_M_QUIVER, NNH_M_SWAP, NNH_M_TWO_WEAPON, NNH_M_OPEN, NNH_M_CLOSE_DOOR, NNH_M_KICK,
    NNH_M_ENGRAVE, NNH_M_CHAT, NNH_M_PAY, NNH_M_OFFER, NNH_M_DIP, NNH_M_RUB, NNH_M_INVOKE,
    NNH_M_LOOT, NNH_M_FORCE, NNH_M_CAST, NNH_M_ENHANCE, NNH_M_PRAY, NNH_M_QUIT,
    NNH_M_CONFIGURE_PICKUP, NNH_M_ANSWER, NNH_M_CANCEL, NNH_M_WIZARD,
    NNH_METHOD_COUNT
};

/* A method's validation row: how a request names it and what it takes.
 * How a gameplay method reaches NetHack is the translator's row. */
typedef struct {
    enum nnh_method_id id;
    const char *name;
    enum nnh_method_class klass;
    const struct nnh_field *fields;
    const char *summary;
} nnh_method;

typedef struct {
    const nnh_method *method;
    const nnh_json_doc *doc;
    int params;                 /* node index of params object */
    char code[40];              /* error code when invalid */
    char message[200];
    char field[80];
} nnh_request;

/* Parse and validate one request line. Returns 0 when valid (req->method
 * and req->params set), or -1 with req->code/message/field describing the
 * typed error. No engine state is read or changed. */
int nnh_request_parse(nnh_request *req, nnh_json_doc *doc, const char *line, int len);

/* Typed accessors for validated params; absent fields give the default. */
const char *nnh_param_str(const nnh_request *req, const char *name);
long long nnh_param_int(const nnh_request *req, const char *name, long long dflt);
int nnh_param_bool(const nnh_request *req, const char *name, int dflt);
int nnh_param_node(const nnh_request *req, const char *name);

/* The method table, for protocol.describe. */
const nnh_method *nnh_methods(int *count);
void nnh_describe_write(nnh_buf *b);


#endif
