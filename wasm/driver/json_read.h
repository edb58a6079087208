/* json_read.h - strict JSON request parser into a flat, allocation-free DOM */
#ifndef NNH_JSON_READ_H
#define NNH_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#define NNH_JSON_MAX_INPUT  4096   /* bytes per request line */
#define NNH_JSON_MAX_DEPTH  16     /* nested arrays/objects */
#define NNH_JSON_MAX_NODES  512
#define NNH_JSON_ARENA_SIZE 8192   /* decoded strings + keys; > 2x input */
#define NNH_JSON_MAX_SAFE_INT 9007199254740991LL  /* 2^53-1, JS-safe */

typedef enum {
    NNH_JSON_OK = 0,
    NNH_JSON_MALFORMED,           /* "malformedJson" */
    NNH_JSON_INVALID_UTF8,        /* "invalidUtf8" */
    NNH_JSON_NUL_BYTE,            /* "nulByte" */
    NNH_JSON_DUPLICATE_FIELD,     /* "duplicateField" */
    NNH_JSON_ESCAPED_FIELD_NAME,  /* "escapedFieldName" */
    NNH_JSON_TOO_DEEP,            /* "tooDeep" */
    NNH_JSON_TOO_LARGE,           /* "tooLarge" */
    NNH_JSON_NUMBER_OUT_OF_RANGE, /* "numberOutOfRange" */
    NNH_JSON_CONTROL_CHARACTER    /* "controlCharacter": a valid \u0000 escape */
} nnh_json_status;

typedef enum {
    NNH_JSON_NULL = 0,
    NNH_JSON_BOOL,
    NNH_JSON_NUMBER,
    NNH_JSON_STRING,
    NNH_JSON_ARRAY,
    NNH_JSON_OBJECT
} nnh_json_kind;

/* Links are node indexes, -1 meaning "none". Pointers point into the
 * owning doc's arena, so they die with (or on re-parse of) the doc. */
typedef struct {
    nnh_json_kind kind;
    const char *key;      /* object members only, else NULL; NUL-terminated */
    size_t key_len;
    const char *str;      /* strings only, else NULL; decoded UTF-8, NUL-terminated */
    size_t str_len;
    int bool_val;         /* bools only: 0 or 1 */
    int is_integer;       /* numbers written without '.', 'e' or 'E' */
    int64_t int_val;      /* is_integer: exact value, |v| <= 2^53-1 */
    double num_val;       /* every number; equals int_val when is_integer */
    int parent;
    int first_child;
    int next_sibling;
    int child_count;
} nnh_json_node;

/* ~40 KiB: keep it static or on the heap, not on a small (wasm) stack. */
typedef struct {
    nnh_json_node nodes[NNH_JSON_MAX_NODES];
    int node_count;
    int status;           /* nnh_json_status of the last parse */
    size_t error_offset;  /* byte offset of the first problem, 0 on success */
    size_t arena_used;
    char arena[NNH_JSON_ARENA_SIZE];
} nnh_json_doc;

/* Parse exactly one JSON value (surrounding whitespace allowed) from
 * text[0..len), which need not be NUL-terminated. Returns NNH_JSON_OK or
 * another nnh_json_status; on error doc->error_offset tells where and the
 * doc holds no usable tree (nnh_json_root() returns -1). The whole input is
 * checked for NUL bytes and UTF-8 validity before the grammar, so those
 * errors win over syntax errors. Never reads outside text[0..len). */
int nnh_json_parse(nnh_json_doc *doc, const char *text, size_t len);

/* Static camelCase name of a status ("malformedJson", ...); "ok" for
 * NNH_JSON_OK and "unknownError" for values outside the enum. */
const char *nnh_json_status_code(int status);

/* Index of the root node, or -1 if the last parse failed. */
int nnh_json_root(const nnh_json_doc *doc);

/* Node at index, or NULL if index is out of range (e.g. -1). */
const nnh_json_node *nnh_json_node_at(const nnh_json_doc *doc, int index);

/* Index of the member named key (NUL-terminated, compared bytewise) in the
 * given object node; -1 if absent or if object_node is not an object. */
int nnh_json_member(const nnh_json_doc *doc, int object_node, const char *key);

/* Index of the n-th (0-based) child of an array or object; -1 if absent. */
int nnh_json_child(const nnh_json_doc *doc, int node, int n);

#endif
