/* io_native.c - NDJSON over stdin/stdout for the native twin.
 *
 * One request per LF-terminated line on stdin, one response per line on
 * stdout; diagnostics only on stderr. */
#ifndef __EMSCRIPTEN__
#include "hack.h"
#include "nnh_state.h"
#include "nnh_io.h"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read one request line (without its newline) into buf. Returns the
 * length, NNH_JSON-independent; an over-long line is consumed whole and
 * reported as cap (so validation rejects it as too large); -1 at EOF. */
int nnh_io_read_request(char *buf, int cap)
{
    int c, n = 0, overflow = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n < cap - 1) buf[n++] = (char) c;
        else overflow = 1;
    }
    if (c == EOF && n == 0) return -1;
    if (n && buf[n - 1] == '\r') n--;
    buf[n] = 0;
    return overflow ? cap : n;
}

/* Write one response; NULL flushes. Exits quietly if stdout is gone. */
void nnh_io_write_response(const char *data, int len)
{
    if (data && fwrite(data, 1, (size_t) len, stdout) != (size_t) len) exit(EXIT_FAILURE);
    if (!data || data[len - 1] == '\n') fflush(stdout);
}

void nnh_io_random_bytes(unsigned char *out, int n)
{
    int fd = open("/dev/urandom", O_RDONLY), got = 0;
    if (fd >= 0) {
        got = (int) read(fd, out, (size_t) n);
        close(fd);
    }
    if (got != n) {
        /* no entropy source: still unique enough for an opaque ID */
        unsigned long long t = (unsigned long long) time(NULL) ^ ((unsigned long long) getpid() << 32);
        int i;
        for (i = 0; i < n; i++) out[i] = (unsigned char) (t >> ((i % 8) * 8)) ^ (unsigned char) (i * 131);
    }
}

long long nnh_io_wall_clock(void)
{
    return (long long) time(NULL);
}
#endif
