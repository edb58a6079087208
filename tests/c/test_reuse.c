/* test_reuse.c - self-test of the section reuse (obs_reuse.c) and the byte
 * helpers (nnh_bytes.c) behind delta responses and map rows.
 *
 * Held here: a section's text is reused exactly when the gathered key
 * equals the last one (same bytes, same length: a key that is a prefix of
 * the last one, or extends it, is a change); serials are equal exactly when
 * the text is the reused one; nnh_bytes_have_quote() finds '"' and '\\' at
 * every offset and nothing else. Prints "ok" and exits 0, else names the
 * first failure and exits 1. */
#include "obs_reuse.h"
#include "nnh_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static const char *current = "";

#define CHECK(cond, what) do { if (!(cond)) { fprintf(stderr, "FAIL %s:%d %s\n", __FILE__, __LINE__, what); failures++; } } while (0)

/* The writer: its text is a function of the key, as a section's must be
 * (a sanitized build checks every reuse against a fresh write). */
static void writer(nnh_buf *b)
{
    nnh_buf_cstr(b, current);
}

/* One write of the section with key parts `keys` (NULL-ended) whose text is
 * `text`; returns the serial, *fresh says whether the text was written
 * afresh (a new serial) rather than reused. */
static unsigned long write_with(nnh_section *s, const char *const *keys, const char *text, int *fresh)
{
    static unsigned long last;
    nnh_buf out;
    unsigned long serial;
    nnh_buf_init(&out);
    current = text;
    nnh_section_begin(s);
    for (; *keys; keys++) nnh_section_key_str(s, *keys);
    nnh_section_write(s, &out, writer);
    serial = nnh_section_serial(s);
    *fresh = serial != last;
    last = serial;
    CHECK(!out.oom && strcmp(out.data, text) == 0, "the appended text");
    CHECK(strcmp(s->text.data, text) == 0, "the kept text");
    nnh_buf_free(&out);
    return serial;
}

static void test_reuse(void)
{
    static nnh_section s;
    const char *const ab[] = { "alpha", "beta", NULL };
    const char *const a[] = { "alpha", NULL };
    const char *const abc[] = { "alpha", "beta", "gamma", NULL };
    const char *const ax[] = { "alpha", "betb", NULL };
    const char *const split[] = { "alph", "abeta", NULL }; /* same bytes but for the NULs */
    int fresh;
    unsigned long first, next;

    first = write_with(&s, ab, "one", &fresh);
    CHECK(fresh && first != 0, "a first write is fresh and named");
    next = write_with(&s, ab, "one", &fresh);
    CHECK(!fresh && next == first, "the same key reuses the text and its serial");
    next = write_with(&s, a, "two", &fresh);
    CHECK(fresh && next != first, "a shorter key (a prefix) is a change");
    first = next;
    next = write_with(&s, a, "two", &fresh);
    CHECK(!fresh && next == first, "the shorter key is now the last one");
    next = write_with(&s, abc, "three", &fresh);
    CHECK(fresh && next != first, "a longer key is a change");
    first = next;
    next = write_with(&s, ax, "four", &fresh);
    CHECK(fresh && next != first, "a key differing in its last part is a change");
    first = next;
    next = write_with(&s, split, "five", &fresh);
    CHECK(fresh && next != first, "parts split elsewhere are another key");
    first = next;
    next = write_with(&s, split, "five", &fresh);
    CHECK(!fresh && next == first, "and reused when gathered again");
    nnh_section_begin(&s);
    nnh_section_key_str(&s, "alph");
    nnh_section_key_str(&s, "abeta");
    nnh_section_uncomparable(&s);
    {
        nnh_buf out;
        nnh_buf_init(&out);
        current = "six";
        nnh_section_write(&s, &out, writer);
        CHECK(strcmp(out.data, "six") == 0, "an uncomparable write is fresh");
        CHECK(nnh_section_serial(&s) == 0, "and not named");
        nnh_buf_free(&out);
    }
    next = write_with(&s, split, "seven", &fresh);
    CHECK(fresh && next != 0 && next != first, "after it, the same key writes afresh");
}

static void test_bytes(void)
{
    char row[128];
    static const unsigned char near[] = { 0x21, 0x23, 0x5b, 0x5d, 0xa2, 0xdc, 0x02, 0x00, 0x7f, 0xff };
    size_t n, at, k;
    for (n = 0; n <= 100; n++) {
        memset(row, 'a', sizeof row);
        CHECK(!nnh_bytes_have_quote(row, n), "plain bytes have no quote");
        for (k = 0; k < sizeof near; k++) {
            for (at = 0; at < n; at++) {
                memset(row, 'a', sizeof row);
                row[at] = (char) near[k];
                CHECK(!nnh_bytes_have_quote(row, n), "a near byte is no quote");
            }
        }
        for (at = 0; at < n; at++) {
            memset(row, 'a', sizeof row);
            row[at] = '"';
            CHECK(nnh_bytes_have_quote(row, n), "a quote at every offset");
            row[at] = '\\';
            CHECK(nnh_bytes_have_quote(row, n), "a backslash at every offset");
            CHECK(!nnh_bytes_have_quote(row, at), "nothing before it");
            CHECK(nnh_bytes_have_quote(row + at, n - at), "unaligned starts");
        }
        for (at = 0; at < n; at++) {
            char other[128];
            memset(row, 'a', sizeof row);
            memcpy(other, row, sizeof row);
            CHECK(nnh_bytes_equal(row, other, n), "equal ranges");
            other[at] = 'b';
            CHECK(!nnh_bytes_equal(row, other, n), "a difference at every offset");
            CHECK(nnh_bytes_equal(row, other, at), "nothing before it");
        }
    }
}

int main(void)
{
    test_reuse();
    test_bytes();
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    puts("ok");
    return 0;
}
