/* json_read.c - strict JSON request parser */
#include "json_read.h"
#include "utf8.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    nnh_json_doc *doc;
    const unsigned char *s;
    size_t len;
    size_t pos;
} parser;

/* Records the first error only; callers just propagate the status. */
static int fail(parser *p, int status, size_t offset)
{
    p->doc->status = status;
    p->doc->error_offset = offset;
    return status;
}


static void skip_ws(parser *p)
{
    while (p->pos < p->len) {
        unsigned char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->pos++;
    }
}

static int new_node(parser *p, nnh_json_kind kind, int parent)
{
    nnh_json_doc *d = p->doc;
    nnh_json_node *n;

    if (d->node_count >= NNH_JSON_MAX_NODES) return -1;
    n = &d->nodes[d->node_count];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->parent = parent;
    n->first_child = n->next_sibling = -1;
    return d->node_count++;
}

static int hex4(const unsigned char *s, unsigned *out)
{
    unsigned v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        unsigned char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* Decodes \uXXXX (and its low-surrogate partner) starting at the 'u'.
 * Writes the UTF-8 bytes to out and returns how many, or a negative
 * status; p->pos ends just past the escape. */
static int unicode_escape(parser *p, char *out)
{
    size_t start = p->pos - 1;  /* the backslash */
    unsigned cp, lo;

    if (p->len - p->pos < 5 || hex4(p->s + p->pos + 1, &cp))
        return -fail(p, NNH_JSON_MALFORMED, start);
    p->pos += 5;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return -fail(p, NNH_JSON_INVALID_UTF8, start);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
            return -fail(p, NNH_JSON_INVALID_UTF8, start);
        if (p->len - p->pos < 6 || hex4(p->s + p->pos + 2, &lo))
            return -fail(p, NNH_JSON_MALFORMED, p->pos);
        if (lo < 0xDC00 || lo > 0xDFFF)
            return -fail(p, NNH_JSON_INVALID_UTF8, start);
        p->pos += 6;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    }
    /* Downstream code uses C strings, where an embedded NUL truncates. The
     * escape is valid JSON, so it is refused as the control character it
     * is (a raw NUL byte, by contrast, is not JSON at all: nulByte). */
    if (cp == 0) return -fail(p, NNH_JSON_CONTROL_CHARACTER, start);
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Parses the string literal at p->pos (a '"') into the arena. UTF-8 was
 * validated up front, so bytes >= 0x80 are copied blindly. */
static int parse_string(parser *p, int is_key, const char **out, size_t *out_len)
{
    nnh_json_doc *d = p->doc;
    size_t start = p->pos, w = d->arena_used;
    char *a = d->arena;

    p->pos++;
    for (;;) {
        size_t run = p->pos;
        unsigned char c;

        while (p->pos < p->len && p->s[p->pos] >= 0x20 &&
               p->s[p->pos] != '"' && p->s[p->pos] != '\\')
            p->pos++;
        /* +5: room for the NUL or one decoded escape (<= 4 bytes). */
        if (w + (p->pos - run) + 5 > NNH_JSON_ARENA_SIZE)
            return fail(p, NNH_JSON_TOO_LARGE, run);
        memcpy(a + w, p->s + run, p->pos - run);
        w += p->pos - run;
        if (p->pos >= p->len) return fail(p, NNH_JSON_MALFORMED, start);
        c = p->s[p->pos];
        if (c == '"') break;
        if (c < 0x20) return fail(p, NNH_JSON_MALFORMED, p->pos);
        /* Keys are matched bytewise against the source, so escapes in them
         * would make "a" and "\u0061" look different to simpler peers. */
        if (is_key) return fail(p, NNH_JSON_ESCAPED_FIELD_NAME, p->pos);
        if (p->pos + 1 >= p->len) return fail(p, NNH_JSON_MALFORMED, p->pos);
        p->pos++;
        switch (p->s[p->pos]) {
        case '"':  a[w++] = '"';  break;
        case '\\': a[w++] = '\\'; break;
        case '/':  a[w++] = '/';  break;
        case 'b':  a[w++] = '\b'; break;
        case 'f':  a[w++] = '\f'; break;
        case 'n':  a[w++] = '\n'; break;
        case 'r':  a[w++] = '\r'; break;
        case 't':  a[w++] = '\t'; break;
        case 'u': {
            int k = unicode_escape(p, a + w);
            if (k < 0) return -k;
            w += (size_t)k;
            continue;
        }
        default:
            return fail(p, NNH_JSON_MALFORMED, p->pos - 1);
        }
        p->pos++;
    }
    p->pos++;
    a[w] = '\0';
    *out = a + d->arena_used;
    *out_len = w - d->arena_used;
    d->arena_used = w + 1;
    return NNH_JSON_OK;
}

static int is_digit(const parser *p, size_t i)
{
    return i < p->len && p->s[i] >= '0' && p->s[i] <= '9';
}

static int parse_number(parser *p, nnh_json_node *n)
{
    size_t start = p->pos, i = p->pos;
    int neg = 0, big = 0;
    int64_t v = 0;

    if (i < p->len && p->s[i] == '-') { neg = 1; i++; }
    if (!is_digit(p, i)) return fail(p, NNH_JSON_MALFORMED, i);
    if (p->s[i] == '0') {
        i++;
    } else {
        /* Saturate instead of overflowing; any excess digit is "big". */
        for (; is_digit(p, i); i++) {
            if (v <= NNH_JSON_MAX_SAFE_INT)
                v = v * 10 + (p->s[i] - '0');
            if (v > NNH_JSON_MAX_SAFE_INT) big = 1;
        }
    }
    n->is_integer = 1;
    if (i < p->len && p->s[i] == '.') {
        n->is_integer = 0;
        if (!is_digit(p, ++i)) return fail(p, NNH_JSON_MALFORMED, i);
        while (is_digit(p, i)) i++;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        n->is_integer = 0;
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-')) i++;
        if (!is_digit(p, i)) return fail(p, NNH_JSON_MALFORMED, i);
        while (is_digit(p, i)) i++;
    }
    p->pos = i;
    if (n->is_integer) {
        if (big) return fail(p, NNH_JSON_NUMBER_OUT_OF_RANGE, start);
        n->int_val = neg ? -v : v;
        n->num_val = (double)n->int_val;
        return NNH_JSON_OK;
    }
    {
        /* strtod needs a terminator; borrow the arena tail, which always
         * has room since decoded strings never outgrow their source. */
        size_t nlen = i - start;
        char *tmp = p->doc->arena + p->doc->arena_used;
        if (p->doc->arena_used + nlen + 1 > NNH_JSON_ARENA_SIZE)
            return fail(p, NNH_JSON_TOO_LARGE, start);
        memcpy(tmp, p->s + start, nlen);
        tmp[nlen] = '\0';
        n->num_val = strtod(tmp, NULL);
        /* Infinity has no JSON spelling, so it could not be echoed back. */
        if (!isfinite(n->num_val))
            return fail(p, NNH_JSON_NUMBER_OUT_OF_RANGE, start);
    }
    return NNH_JSON_OK;
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);

    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, NNH_JSON_MALFORMED, p->pos);
    p->pos += n;
    return NNH_JSON_OK;
}

static int parse_value(parser *p, int parent, int depth, int *out);

/* Appends child to node `parent`; *last caches the tail so appends are O(1). */
static void link_child(nnh_json_doc *d, int parent, int *last, int child)
{
    if (*last < 0) d->nodes[parent].first_child = child;
    else d->nodes[*last].next_sibling = child;
    d->nodes[parent].child_count++;
    *last = child;
}

static int parse_array(parser *p, int self, int depth)
{
    int last = -1, child, rc;

    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') { p->pos++; return NNH_JSON_OK; }
    for (;;) {
        if ((rc = parse_value(p, self, depth, &child)) != NNH_JSON_OK) return rc;
        link_child(p->doc, self, &last, child);
        skip_ws(p);
        if (p->pos >= p->len) return fail(p, NNH_JSON_MALFORMED, p->pos);
        if (p->s[p->pos] == ']') { p->pos++; return NNH_JSON_OK; }
        if (p->s[p->pos] != ',') return fail(p, NNH_JSON_MALFORMED, p->pos);
        p->pos++;
        skip_ws(p);
    }
}

static int parse_object(parser *p, int self, int depth)
{
    nnh_json_doc *d = p->doc;
    int last = -1, child, rc, i;
    const char *key;
    size_t key_len, key_pos;

    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') { p->pos++; return NNH_JSON_OK; }
    for (;;) {
        key_pos = p->pos;
        if (p->pos >= p->len || p->s[p->pos] != '"')
            return fail(p, NNH_JSON_MALFORMED, p->pos);
        if ((rc = parse_string(p, 1, &key, &key_len)) != NNH_JSON_OK) return rc;
        /* Quadratic, but objects are bounded by the 512-node cap. */
        for (i = d->nodes[self].first_child; i >= 0; i = d->nodes[i].next_sibling)
            if (d->nodes[i].key_len == key_len && memcmp(d->nodes[i].key, key, key_len) == 0)
                return fail(p, NNH_JSON_DUPLICATE_FIELD, key_pos);
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != ':')
            return fail(p, NNH_JSON_MALFORMED, p->pos);
        p->pos++;
        skip_ws(p);
        if ((rc = parse_value(p, self, depth, &child)) != NNH_JSON_OK) return rc;
        d->nodes[child].key = key;
        d->nodes[child].key_len = key_len;
        link_child(d, self, &last, child);
        skip_ws(p);
        if (p->pos >= p->len) return fail(p, NNH_JSON_MALFORMED, p->pos);
        if (p->s[p->pos] == '}') { p->pos++; return NNH_JSON_OK; }
        if (p->s[p->pos] != ',') return fail(p, NNH_JSON_MALFORMED, p->pos);
        p->pos++;
        skip_ws(p);
    }
}

/* Expects p->pos at the first byte of a value (whitespace already eaten).
 * Recursion is bounded by NNH_JSON_MAX_DEPTH, so the C stack is safe. */
static int parse_value(parser *p, int parent, int depth, int *out)
{
    nnh_json_kind kind;
    nnh_json_node *n;
    int idx;
    unsigned char c;

    if (p->pos >= p->len) return fail(p, NNH_JSON_MALFORMED, p->pos);
    c = p->s[p->pos];
    switch (c) {
    case '{': kind = NNH_JSON_OBJECT; break;
    case '[': kind = NNH_JSON_ARRAY; break;
    case '"': kind = NNH_JSON_STRING; break;
    case 't': case 'f': kind = NNH_JSON_BOOL; break;
    case 'n': kind = NNH_JSON_NULL; break;
    default:
        if (c != '-' && (c < '0' || c > '9'))
            return fail(p, NNH_JSON_MALFORMED, p->pos);
        kind = NNH_JSON_NUMBER;
    }
    if ((kind == NNH_JSON_OBJECT || kind == NNH_JSON_ARRAY) && ++depth > NNH_JSON_MAX_DEPTH)
        return fail(p, NNH_JSON_TOO_DEEP, p->pos);
    if ((idx = new_node(p, kind, parent)) < 0)
        return fail(p, NNH_JSON_TOO_LARGE, p->pos);
    *out = idx;
    n = &p->doc->nodes[idx];
    switch (kind) {
    case NNH_JSON_OBJECT: return parse_object(p, idx, depth);
    case NNH_JSON_ARRAY:  return parse_array(p, idx, depth);
    case NNH_JSON_STRING: return parse_string(p, 0, &n->str, &n->str_len);
    case NNH_JSON_NUMBER: return parse_number(p, n);
    case NNH_JSON_NULL:   return literal(p, "null");
    case NNH_JSON_BOOL:
        n->bool_val = (c == 't');
        return literal(p, n->bool_val ? "true" : "false");
    }
    return fail(p, NNH_JSON_MALFORMED, p->pos);
}

int nnh_json_parse(nnh_json_doc *doc, const char *text, size_t len)
{
    parser p;
    size_t i;
    int root, rc;

    doc->node_count = 0;
    doc->arena_used = 0;
    doc->status = NNH_JSON_OK;
    doc->error_offset = 0;
    p.doc = doc;
    p.s = (const unsigned char *)text;
    p.len = len;
    p.pos = 0;
    if (len > NNH_JSON_MAX_INPUT) rc = fail(&p, NNH_JSON_TOO_LARGE, NNH_JSON_MAX_INPUT);
    else {
        /* One pass for byte-level validity lets the grammar code treat
         * every byte >= 0x80 as opaque string content. */
        for (i = 0, rc = NNH_JSON_OK; i < len && rc == NNH_JSON_OK; ) {
            size_t k;
            if (p.s[i] == 0) rc = fail(&p, NNH_JSON_NUL_BYTE, i);
            else if (p.s[i] < 0x80) i++; /* ASCII, nearly every byte: no call */
            else if ((k = nnh_utf8_seq_len(p.s + i, len - i)) == 0)
                rc = fail(&p, NNH_JSON_INVALID_UTF8, i);
            else i += k;
        }
        if (rc == NNH_JSON_OK) {
            skip_ws(&p);
            rc = parse_value(&p, -1, 0, &root);
        }
        if (rc == NNH_JSON_OK) {
            skip_ws(&p);
            if (p.pos != len) rc = fail(&p, NNH_JSON_MALFORMED, p.pos);
        }
    }
    if (rc != NNH_JSON_OK) doc->node_count = 0;
    return rc;
}

const char *nnh_json_status_code(int status)
{
    static const char *const names[] = {
        "ok", "malformedJson", "invalidUtf8", "nulByte", "duplicateField",
        "escapedFieldName", "tooDeep", "tooLarge", "numberOutOfRange", "controlCharacter"
    };

    if (status < 0 || (size_t)status >= sizeof names / sizeof names[0])
        return "unknownError";
    return names[status];
}

int nnh_json_root(const nnh_json_doc *doc)
{
    return (doc->status == NNH_JSON_OK && doc->node_count > 0) ? 0 : -1;
}

const nnh_json_node *nnh_json_node_at(const nnh_json_doc *doc, int index)
{
    if (index < 0 || index >= doc->node_count) return NULL;
    return &doc->nodes[index];
}

int nnh_json_member(const nnh_json_doc *doc, int object_node, const char *key)
{
    const nnh_json_node *o = nnh_json_node_at(doc, object_node);
    size_t klen = strlen(key);
    int i;

    if (o == NULL || o->kind != NNH_JSON_OBJECT) return -1;
    for (i = o->first_child; i >= 0; i = doc->nodes[i].next_sibling)
        if (doc->nodes[i].key_len == klen && memcmp(doc->nodes[i].key, key, klen) == 0)
            return i;
    return -1;
}

int nnh_json_child(const nnh_json_doc *doc, int node, int n)
{
    const nnh_json_node *o = nnh_json_node_at(doc, node);
    int i;

    if (o == NULL || n < 0 || n >= o->child_count) return -1;
    for (i = o->first_child; n > 0; n--) i = doc->nodes[i].next_sibling;
    return i;
}
