/* json_write.c - growable output buffer for building JSON responses */
#include "json_write.h"
#include "utf8.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NNH_BUF_MIN_CAP 4096

/* Slow path of reserve(): grow geometrically so appends are amortised O(1). */
static int buf_grow(nnh_buf *b, size_t n)
{
    size_t want, cap;
    char *p;

    if (n > SIZE_MAX - 1 - b->len) { b->oom = 1; return -1; }
    want = b->len + n + 1;
    cap = b->cap ? b->cap : NNH_BUF_MIN_CAP;
    while (cap < want)
        cap = (cap > SIZE_MAX / 2) ? want : cap * 2;
    p = (char *)realloc(b->data, cap);
    if (p == NULL) { b->oom = 1; return -1; }
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Ensures room for n more bytes plus the trailing NUL; 0 when writable. */
static inline int reserve(nnh_buf *b, size_t n)
{
    if (b->oom) return -1;
    if (b->cap - b->len > n) return 0;
    return buf_grow(b, n);
}

void nnh_buf_init(nnh_buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

void nnh_buf_reset(nnh_buf *b)
{
    b->len = 0;
    b->oom = 0;
    if (b->data) b->data[0] = '\0';
}

void nnh_buf_free(nnh_buf *b)
{
    free(b->data);
    nnh_buf_init(b);
}

void nnh_buf_raw(nnh_buf *b, const char *s, size_t n)
{
    if (reserve(b, n)) return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void nnh_buf_cstr(nnh_buf *b, const char *s)
{
    nnh_buf_raw(b, s, strlen(s));
}

void nnh_buf_char(nnh_buf *b, char c)
{
    if (reserve(b, 1)) return;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

void nnh_buf_int(nnh_buf *b, long long v)
{
    char tmp[24];
    size_t i = sizeof tmp;
    /* Negate in unsigned arithmetic so LLONG_MIN does not overflow. */
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

    if (u <= 0xFFFFFFFFu) {
        /* nearly every value: 32-bit division, not a 64-bit library call
           on the 32-bit native twin (or i64 division in WebAssembly) */
        uint32_t w = (uint32_t)u;
        do {
            tmp[--i] = (char)('0' + w % 10);
            w /= 10;
        } while (w);
    } else {
        do {
            tmp[--i] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
    }
    if (v < 0) tmp[--i] = '-';
    nnh_buf_raw(b, tmp + i, sizeof tmp - i);
}


/* The bytes a JSON string carries as they are: printable ASCII but the quote
 * and the backslash (DEL included, as always). One lookup per byte keeps
 * the scan of long plain runs - most of a response - tight. */
static const unsigned char plain_byte[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x5b] = 1, [0x5d ... 0x7f] = 1,
};

void nnh_buf_jstrn(nnh_buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    char *o;

    /* Most strings need no escaping: one reservation covers them whole,
     * making the per-run reserve() calls below cheap no-op checks. */
    if (reserve(b, n + 2)) return;
    b->data[b->len++] = '"';
    while (p < end) {
        const unsigned char *run = p;
        size_t k;

        while (p < end && plain_byte[*p])
            p++;
        if (p > run) {
            if (reserve(b, (size_t)(p - run))) goto out;
            memcpy(b->data + b->len, run, (size_t)(p - run));
            b->len += (size_t)(p - run);
        }
        if (p == end) break;
        if (reserve(b, 6)) goto out;  /* longest single output: \u00XX */
        o = b->data + b->len;
        if (*p >= 0x80) {
            if ((k = nnh_utf8_seq_len(p, (size_t)(end - p))) != 0) {
                memcpy(o, p, k);
                b->len += k;
                p += k;
            } else {
                o[0] = (char)0xEF; o[1] = (char)0xBF; o[2] = (char)0xBD;
                b->len += 3;
                p++;
            }
            continue;
        }
        o[0] = '\\';
        switch (*p) {
        case '"':  o[1] = '"';  break;
        case '\\': o[1] = '\\'; break;
        case '\n': o[1] = 'n';  break;
        case '\t': o[1] = 't';  break;
        case '\r': o[1] = 'r';  break;
        case '\b': o[1] = 'b';  break;
        case '\f': o[1] = 'f';  break;
        default:
            o[1] = 'u'; o[2] = '0'; o[3] = '0';
            o[4] = hex[*p >> 4]; o[5] = hex[*p & 15];
            b->len += 4;
        }
        b->len += 2;
        p++;
    }
    if (reserve(b, 1) == 0) b->data[b->len++] = '"';
out:
    /* Every successful reserve() left a spare byte, even if a later one
     * failed, so the NUL always fits and the prefix stays a C string. */
    b->data[b->len] = '\0';
}

void nnh_buf_jstr(nnh_buf *b, const char *s)
{
    nnh_buf_jstrn(b, s, strlen(s));
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NNH_CHECK_KEYS 1
#endif
#endif

void nnh_buf_key_n(nnh_buf *b, const char *k, size_t n)
{
#ifdef NNH_CHECK_KEYS
    /* the sanitized twin (fuzzing) holds every key to the contract */
    size_t i;
    for (i = 0; i < n; i++)
        if (!plain_byte[(unsigned char) k[i]]) abort();
#endif
    if (reserve(b, n + 3)) return;
    b->data[b->len] = '"';
    memcpy(b->data + b->len + 1, k, n);
    b->len += n + 3;
    b->data[b->len - 2] = '"';
    b->data[b->len - 1] = ':';
    b->data[b->len] = '\0';
}
