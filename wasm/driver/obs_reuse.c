/* obs_reuse.c - reuse a response section's text while its inputs are
 * unchanged (see obs_reuse.h). */
#include "obs_reuse.h"
#include "nnh_bytes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NNH_ALWAYS_CHECK 1
#endif
#endif
#ifndef NNH_ALWAYS_CHECK
#define NNH_ALWAYS_CHECK 0
#endif

/* Whether every reuse is checked against a fresh write: always in the
 * sanitized twin, else when NNH_CHECK_REUSE is set (read once). */
int nnh_reuse_checking(void)
{
    static int check = -1;
    if (check < 0) check = NNH_ALWAYS_CHECK || getenv("NNH_CHECK_REUSE") != NULL;
    return check;
}

void nnh_section_begin(nnh_section *s)
{
    nnh_buf_reset(&s->key);
    s->uncomparable = 0;
    s->matched = 0;
    s->diverged = !s->valid;
}

/* From here on the inputs are gathered into key: the matched prefix first. */
static void diverge(nnh_section *s)
{
    s->diverged = 1;
    nnh_buf_raw(&s->key, s->last_key.data, s->matched);
}

void nnh_section_uncomparable(nnh_section *s)
{
    s->uncomparable = 1;
}

void nnh_section_key(nnh_section *s, const void *p, size_t n)
{
    if (!s->diverged) {
        if (s->last_key.len - s->matched >= n && nnh_bytes_equal(s->last_key.data + s->matched, p, n)) {
            s->matched += n;
            return;
        }
        diverge(s);
    }
    nnh_buf_raw(&s->key, (const char *) p, n);
}

void nnh_section_key_str(nnh_section *s, const char *str)
{
    /* the NUL ends the string in the key, so "ab"+"c" differs from "a"+"bc" */
    if (str) nnh_section_key(s, str, strlen(str) + 1);
    else nnh_section_key(s, "\xff", 1);
}

static int key_unchanged(const nnh_section *s)
{
    return s->valid && !s->uncomparable && !s->diverged && s->matched == s->last_key.len;
}

/* A reuse that a fresh write contradicts: a writer input the key missed. */
static void check_reuse(nnh_section *s, nnh_section_writer write)
{
    nnh_buf fresh;
    nnh_buf_init(&fresh);
    write(&fresh);
    if (!fresh.oom && (fresh.len != s->text.len || memcmp(fresh.data, s->text.data, fresh.len))) {
        /* from a little before the first difference: a log keeps the tail */
        size_t at = 0, from;
        while (at < fresh.len && at < s->text.len && fresh.data[at] == s->text.data[at]) at++;
        from = at > 160 ? at - 160 : 0;
        fprintf(stderr, "nhdriver: a reused section differs from a fresh write at byte %zu\n"
                        "  reused: ...%.400s\n  fresh:  ...%.400s\n",
                at, s->text.data + from, fresh.data + from);
        abort();
    }
    nnh_buf_free(&fresh);
}

/* One counter for every section: a serial names one text of one section. */
static unsigned long last_serial;

unsigned long nnh_section_serial(const nnh_section *s)
{
    return s->valid ? s->serial : 0;
}

void nnh_section_write(nnh_section *s, nnh_buf *b, nnh_section_writer write)
{
    size_t start = b->len;
    nnh_buf swap;
    if (key_unchanged(s)) {
        if (nnh_reuse_checking()) check_reuse(s, write);
        nnh_buf_raw(b, s->text.data, s->text.len);
        return;
    }
    if (!s->diverged) diverge(s); /* a shorter key: it becomes the last one */
    write(b);
    s->valid = 0;
    if (b->oom || s->key.oom || s->uncomparable) return;
    nnh_buf_reset(&s->text);
    nnh_buf_raw(&s->text, b->data + start, b->len - start);
    if (s->text.oom) return;
    /* the gathered key becomes the last one; the old buffer is reused for
       the next gathering */
    swap = s->last_key;
    s->last_key = s->key;
    s->key = swap;
    s->valid = 1;
    s->serial = ++last_serial;
}
