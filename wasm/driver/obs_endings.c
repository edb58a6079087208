/* obs_endings.c - the end-of-game windows (see obs_endings.h). */
#include "hack.h"
#include "nnh_state.h"
#include "obs_endings.h"

/* The windows' JSON, built as they are shown (the members of the array). A
 * game ends once per process, so the buffer is never reset. */
static nnh_buf windows;
static int n_windows;

void nnh_endings_record(const char *const *lines, int n)
{
    int i;
    if (!program_state.gameover || n <= 0) return;
    if (n_windows++) nnh_buf_char(&windows, ',');
    nnh_buf_cstr(&windows, "{\"lines\":[");
    for (i = 0; i < n; i++) {
        if (i) nnh_buf_char(&windows, ',');
        nnh_buf_jstr(&windows, lines[i]);
    }
    nnh_buf_cstr(&windows, "]}");
}

void nnh_endings_write(nnh_buf *b)
{
    nnh_buf_cstr(b, ",\"windows\":[");
    if (n_windows) nnh_buf_raw(b, windows.data, windows.len);
    nnh_buf_char(b, ']');
}
