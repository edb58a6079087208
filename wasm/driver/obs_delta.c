/* obs_delta.c - delta responses (see obs_delta.h). */
#include "obs_delta.h"
#include "obs_reuse.h"
#include "nnh_bytes.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    nnh_buf text;         /* the member's value in the last response that carried it */
    int valid;            /* text is what the host received */
    unsigned long serial; /* the section text it is (obs_reuse.h), 0: unnamed */
} last_sent;

static last_sent sent[NNH_DELTA_MEMBERS];
static int enabled;

void nnh_delta_set_enabled(int on)
{
    enabled = on;
}

void nnh_delta_settle(nnh_buf *b, nnh_delta_member member, size_t start)
{
    nnh_delta_settle_text(b, member, start, 0);
}

void nnh_delta_settle_text(nnh_buf *b, nnh_delta_member member, size_t start, unsigned long serial)
{
    last_sent *last = &sent[member];
    const char *text = b->data + start;
    size_t len = b->len - start;
    int same, named_same;
    if (b->oom) {
        /* this response is not sent whole: the host's copy stays what it was,
           which the driver no longer knows */
        last->valid = 0;
        return;
    }
    /* a section's text with the serial of the one last sent: the same bytes
       (~2-3 KB for the inventory and the knowledge) without comparing them */
    named_same = serial && last->valid && last->serial == serial;
    if (named_same && !nnh_reuse_checking()) same = 1;
    else same = last->valid && last->text.len == len && nnh_bytes_equal(last->text.data, text, len);
    if (named_same && !same) {
        fprintf(stderr, "nhdriver: delta member %d has its last text's serial but other bytes\n", (int) member);
        abort();
    }
    last->serial = serial;
    if (same) {
        if (enabled) {
            b->len = start;
            nnh_buf_cstr(b, "null");
        }
        return;
    }
    nnh_buf_reset(&last->text);
    nnh_buf_raw(&last->text, text, len);
    last->valid = !last->text.oom;
}
