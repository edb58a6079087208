/* nnh_bytes.c - byte range equality (see nnh_bytes.h). */
#include "nnh_bytes.h"

#include <stdint.h>
#include <string.h>

int nnh_bytes_equal(const void *a, const void *b, size_t n)
{
    const unsigned char *p = (const unsigned char *) a, *q = (const unsigned char *) b;
    uint64_t x, y;
    for (; n >= 8; n -= 8, p += 8, q += 8) {
        memcpy(&x, p, 8); /* unaligned-safe loads: one i64.load each */
        memcpy(&y, q, 8);
        if (x != y) return 0;
    }
    for (; n; n--, p++, q++)
        if (*p != *q) return 0;
    return 1;
}

/* A byte of x is zero iff its lane in (x - 0x01..) & ~x & 0x80.. is set:
 * exact for "any lane zero" (the borrow only runs past a zero lane). */
static int has_zero_byte(uint64_t x)
{
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

int nnh_bytes_have_quote(const void *at, size_t n)
{
    const unsigned char *p = (const unsigned char *) at;
    uint64_t x;
    for (; n >= 8; n -= 8, p += 8) {
        memcpy(&x, p, 8);
        if (has_zero_byte(x ^ 0x2222222222222222ull) || has_zero_byte(x ^ 0x5c5c5c5c5c5c5c5cull)) return 1;
    }
    for (; n; n--, p++)
        if (*p == '"' || *p == '\\') return 1;
    return 0;
}
