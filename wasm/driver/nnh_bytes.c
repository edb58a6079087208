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
