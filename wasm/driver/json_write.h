/* json_write.h - growable output buffer for building JSON responses */
#ifndef NNH_JSON_WRITE_H
#define NNH_JSON_WRITE_H

#include <stddef.h>

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

/* Append "k": (escaped like nnh_buf_jstr). Sets oom on failure. */
void nnh_buf_key(nnh_buf *b, const char *k);

/* Append ,"k":"v" or ,"k":n - a member after an object's first one.
 * Sets oom on failure. */
void nnh_buf_member_str(nnh_buf *b, const char *k, const char *v);
void nnh_buf_member_int(nnh_buf *b, const char *k, long long v);

#endif
