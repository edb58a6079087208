/* io_native.c - NDJSON over stdin/stdout for the native twin.
 *
 * One request per LF-terminated line on stdin, one response per line on
 * stdout; diagnostics only on stderr. */
#ifndef __EMSCRIPTEN__
#include "hack.h"
#include "nnh_state.h"
#include "nnh_io.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio_ext.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* Replay checkpoints (docs/REPLAY.md): a driver started with NNH_FORKABLE=1
 * (a replay engine, never a live game's) takes the transport line
 * "#fork <unix-socket-path> <token>" between requests, at an input boundary.
 * It forks; the child copies the game directory, connects to the socket,
 * says {"forked":{"token":...,"pid":...}} there and serves requests on it
 * from exactly this boundary; the parent answers {"fork":{"pid":...}} (or
 * {"fork":{"error":...}}) on its own stdout and reads on. A paused child is
 * an exact in-memory checkpoint: nothing outside the process decides the
 * next input's effect but its memory and its directory. */
static int fork_here(const char *socket_path, const char *token)
{
    struct sockaddr_un address;
    int fd;
    pid_t pid;
    if (strlen(socket_path) >= sizeof address.sun_path) return -1;
    fflush(stdout);
    signal(SIGCHLD, SIG_IGN); /* checkpoints are never waited for: reap them */
    pid = fork();
    if (pid != 0) return pid < 0 ? -1 : (int) pid;
    if (nnh_playground_fork()) _exit(EXIT_FAILURE);
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    strcpy(address.sun_path, socket_path);
    if (fd < 0 || connect(fd, (struct sockaddr *) &address, sizeof address)) _exit(EXIT_FAILURE);
    /* The parent's buffered requests are the parent's: this process starts
     * from the boundary with nothing read ahead. */
    __fpurge(stdin);
    if (dup2(fd, 0) < 0 || dup2(fd, 1) < 0) _exit(EXIT_FAILURE);
    close(fd);
    clearerr(stdin);
    printf("{\"forked\":{\"token\":\"%s\",\"pid\":%d}}\n", token, (int) getpid());
    fflush(stdout);
    return 0;
}

/* A "#fork" line: handled here, below the protocol; 1 when it was one. */
static int transport_control(char *buf)
{
    char path[200], token[40];
    int pid;
    if (strncmp(buf, "#fork ", 6) || !getenv("NNH_FORKABLE")) return 0;
    if (sscanf(buf + 6, "%199s %39[0-9a-f]", path, token) != 2) {
        printf("{\"fork\":{\"error\":\"usage: #fork <socket> <hex token>\"}}\n");
    } else if ((pid = fork_here(path, token)) < 0) {
        printf("{\"fork\":{\"error\":\"fork failed\"}}\n");
    } else if (pid == 0) {
        return 1; /* the child: read its first request from the socket */
    } else {
        printf("{\"fork\":{\"pid\":%d}}\n", pid);
    }
    fflush(stdout);
    return 1;
}

/* Read one request line (without its newline) into buf. Returns the
 * length, NNH_JSON-independent; an over-long line is consumed whole and
 * reported as cap (so validation rejects it as too large); -1 at EOF. */
int nnh_io_read_request(char *buf, int cap)
{
    int c, n, overflow;
again:
    n = 0;
    overflow = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n < cap - 1) buf[n++] = (char) c;
        else overflow = 1;
    }
    if (c == EOF && n == 0) return -1;
    if (n && buf[n - 1] == '\r') n--;
    buf[n] = 0;
    if (!overflow && buf[0] == '#' && transport_control(buf)) goto again;
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
