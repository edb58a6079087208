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
    NNH_LIFECYCLE = 0, /* describe, create, observe, close */
    NNH_GAMEPLAY,      /* sends input; needs requestId + expectedRevision */
    NNH_CONTINUATION   /* decision.answer / decision.cancel */
};

/* A control key, as NetHack reads it (^D kicks). */
#define NNH_CTRL(c) (0x1f & (c))

typedef struct {
    const char *name;
    enum nnh_method_class klass;
    const struct nnh_field *fields;
    const char *summary;
    int key;                    /* NetHack command key, or 0 */
    int accessory_key;          /* equip/remove: the accessory's key (P/R) */
    const char *extended;       /* typed after '#' (#pray), or NULL */
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
