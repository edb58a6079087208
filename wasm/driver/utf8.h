/* utf8.h - strict UTF-8 sequence validation (RFC 3629). */
#ifndef NNH_UTF8_H
#define NNH_UTF8_H

#include <stddef.h>

/* Length (1-4) of the well-formed UTF-8 sequence at s, with n bytes
 * available, or 0 when it is malformed: overlong forms, encoded surrogates,
 * code points above U+10FFFF and truncated sequences. Can't fail. */
size_t nnh_utf8_seq_len(const unsigned char *s, size_t n);

#endif
