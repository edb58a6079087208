/* obs_delta.c - delta responses (see obs_delta.h). */
#include "obs_delta.h"
#include "nnh_bytes.h"

typedef struct {
    nnh_buf text; /* the member's value in the last response that carried it */
    int valid;    /* text is what the host received */
} last_sent;

static last_sent sent[NNH_DELTA_MEMBERS];
static int enabled;

void nnh_delta_set_enabled(int on)
{
    enabled = on;
}

void nnh_delta_settle(nnh_buf *b, nnh_delta_member member, size_t start)
{
    last_sent *last = &sent[member];
    const char *text = b->data + start;
    size_t len = b->len - start;
    int same;
    if (b->oom) {
        /* this response is not sent whole: the host's copy stays what it was,
           which the driver no longer knows */
        last->valid = 0;
        return;
    }
    same = last->valid && last->text.len == len && nnh_bytes_equal(last->text.data, text, len);
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
