/* json_write.h - growable output buffer for building JSON responses */
#ifndef NNH_JSON_WRITE_H
#define NNH_JSON_WRITE_H

#include <stddef.h>
#include <string.h>

/* data[len] is always '\0' once anything was written, so data can be used
 * as a C string. After an allocation failure oom is 1, every later write
 * is a no-op and data holds a truncated prefix: check oom before sending. */
typedef struct {
    char *data;
    size_t len, cap;
    int oom;
} nnh_buf;

/* Start empty without allocating. Cannot fail. */
void nnh_buf_init(nnh_buf *b);

/* Empty the buffer and clear oom but keep the allocation for reuse.
 * Cannot fail. */
void nnh_buf_reset(nnh_buf *b);

/* Release memory and return to the init state. Cannot fail. */
void nnh_buf_free(nnh_buf *b);

/* Append n raw bytes, no escaping. Sets oom on allocation failure. */
void nnh_buf_raw(nnh_buf *b, const char *s, size_t n);

/* Append a NUL-terminated string raw, no escaping. Sets oom on failure. */
void nnh_buf_cstr(nnh_buf *b, const char *s);

/* Append one raw byte. Sets oom on failure. */
void nnh_buf_char(nnh_buf *b, char c);

/* Append v in decimal (full range incl. LLONG_MIN). Sets oom on failure. */
void nnh_buf_int(nnh_buf *b, long long v);

/* Append s[0..n) as a quoted JSON string. '"', '\\' and control bytes are
 * escaped; well-formed UTF-8 passes through; each byte that does not start
 * a well-formed sequence becomes U+FFFD, so output is always valid JSON and
 * UTF-8. Embedded NULs are written as \u0000. Sets oom on failure. */
void nnh_buf_jstrn(nnh_buf *b, const char *s, size_t n);

/* nnh_buf_jstrn() for a NUL-terminated, non-NULL string. */
void nnh_buf_jstr(nnh_buf *b, const char *s);

/* Append "k": where k is n bytes of one of the driver's own member names
 * (printable ASCII without '"' or '\\', never game text), written as it
 * is. Sets oom on failure. */
void nnh_buf_key_n(nnh_buf *b, const char *k, size_t n);

/* The writers below are inline so that strlen() of a literal key folds to a
 * constant: a response has hundreds of members, every step. */

/* Append "k": (a member name, as for nnh_buf_key_n). Sets oom on failure. */
static inline void nnh_buf_key(nnh_buf *b, const char *k)
{
    nnh_buf_key_n(b, k, strlen(k));
}

/* Append ,"k":"v" or ,"k":n - a member after an object's first one.
 * Sets oom on failure. */
static inline void nnh_buf_member_str(nnh_buf *b, const char *k, const char *v)
{
    nnh_buf_char(b, ',');
    nnh_buf_key(b, k);
    nnh_buf_jstr(b, v);
}

static inline void nnh_buf_member_int(nnh_buf *b, const char *k, long long v)
{
    nnh_buf_char(b, ',');
    nnh_buf_key(b, k);
    nnh_buf_int(b, v);
}

#endif
