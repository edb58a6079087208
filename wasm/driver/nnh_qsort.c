/* nnh_qsort.c - a stable sort that NetHack's qsort() calls are renamed to.
 *
 * glibc's qsort is a stable merge sort, musl's (emscripten) is smoothsort,
 * which is not: equal keys (rooms sharing a left edge, say) would come out
 * in different orders and the native and WASM games would diverge. The
 * build compiles NetHack with -Dqsort=nnh_qsort so both use this one. */
#include <stdlib.h>
#include <string.h>

static void merge_sort(char *base, char *tmp, size_t n, size_t size,
                       int (*cmp)(const void *, const void *))
{
    size_t half, i, j, k;
    if (n < 2) return;
    half = n / 2;
    merge_sort(base, tmp, half, size, cmp);
    merge_sort(base + half * size, tmp, n - half, size, cmp);
    for (i = 0, j = half, k = 0; i < half && j < n; k++) {
        if (cmp(base + j * size, base + i * size) < 0) {
            memcpy(tmp + k * size, base + j * size, size);
            j++;
        } else {
            memcpy(tmp + k * size, base + i * size, size);
            i++;
        }
    }
    if (i < half) memcpy(tmp + k * size, base + i * size, (half - i) * size), k += half - i;
    memcpy(base, tmp, k * size); /* the remaining right run is already in place */
}

/* Sort n elements of size bytes, stably. If memory runs out the array is
 * left as it was; NetHack's sorts are tiny, so that does not happen. */
void nnh_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    char *tmp;
    if (n < 2 || !size) return;
    tmp = malloc(n * size);
    if (!tmp) return;
    merge_sort((char *) base, tmp, n, size, cmp);
    free(tmp);
}
