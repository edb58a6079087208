/* nnh_bytes.h - whether two byte ranges are equal, eight bytes at a time.
 *
 * The response path compares kilobytes at every step (a section's key with
 * the last one, a member's text with the one last sent, each map row's
 * visible layer). In WebAssembly memcmp() is musl's byte loop; this is one
 * 64-bit load and compare per eight bytes there and natively. Equality
 * only: no ordering. */
#ifndef NNH_BYTES_H
#define NNH_BYTES_H

#include <stddef.h>

/* 1 when the n bytes at a and b are the same, else 0. Cannot fail. */
int nnh_bytes_equal(const void *a, const void *b, size_t n);

/* 1 when any of the n bytes at p is '"' or '\\' (what a JSON string must
 * escape besides control bytes), else 0; eight bytes at a time, for the
 * map's 80-byte rows. Cannot fail. */
int nnh_bytes_have_quote(const void *p, size_t n);

#endif
