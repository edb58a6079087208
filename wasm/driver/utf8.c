/* utf8.c - strict UTF-8 sequence validation shared by the JSON reader and writer. */
#include "utf8.h"

/* Length of the well-formed UTF-8 sequence at s (n bytes available), or 0.
 * Rejects overlongs, encoded surrogates and code points above U+10FFFF
 * by narrowing the allowed range of the second byte (RFC 3629 table). */
size_t nnh_utf8_seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t need, i;

    if (c < 0x80) return 1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) need = 2;
    else if (c < 0xF0) {
        need = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c < 0xF5) {
        need = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else return 0;
    if (n < need || s[1] < lo || s[1] > hi) return 0;
    for (i = 2; i < need; i++)
        if (s[i] < 0x80 || s[i] > 0xBF) return 0;
    return need;
}
