/* io_bench.c - an in-process transport for measuring the engine itself.
 *
 * Replaces io_native.c in build/native/nhbench. It plays the fixed mix of
 * scripts/bench-engine (even steps move in compass order, odd steps search,
 * a standing decision is cancelled) by reading the driver's own state
 * instead of parsing responses, and counts the response bytes it is handed,
 * so the time measured is NetHack plus building every full response, with
 * no pipe in between. Prints one JSON line at exit.
 *
 *   build/native/nhbench SEED OPS [cpu] [delta] [dump]
 *
 * cpu: time the process's CPU use instead of the monotonic wall clock (on a
 * shared machine, the nearest measure of the engine's own speed).
 * delta: every step asks for a delta response (obs_delta.h).
 * dump: every response is also written to stdout, one line each, so a
 * driver change can be held byte for byte to the responses of the build
 * before it (docs/BENCHMARKS.md, "Issue 27, engine speed"). */
#include "hack.h"
#include "nnh_state.h"
#include "nnh_io.h"
#include <time.h>

static long ops, budget = 1000, seed = 1;
static unsigned long long response_bytes;
static struct timespec started;
static int created, stepped;
static clockid_t clock_id = CLOCK_MONOTONIC;
static const char *delta = ""; /* ",\"delta\":true" with the delta argument */
static int dump;

static double now(void)
{
    struct timespec t;
    clock_gettime(clock_id, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void report(void)
{
    double elapsed = now() - (started.tv_sec + started.tv_nsec / 1e9);
    fprintf(stderr, "{\"ops\":%ld,\"seconds\":%.6f,\"responseBytes\":%llu}\n", ops, elapsed, response_bytes);
}

int nnh_io_read_request(char *buf, int cap)
{
    static const char *const directions[] = { "north", "east", "south", "west",
        "northeast", "southeast", "southwest", "northwest" };
    if (!created) {
        created = 1;
        return snprintf(buf, cap, "{\"version\":1,\"method\":\"session.create\",\"params\":"
                        "{\"seed\":%ld,\"sessionId\":\"bench\",\"createdAt\":1700000000}}", seed);
    }
    if (ops == 0 && !started.tv_sec) {
        clock_gettime(clock_id, &started);
        atexit(report);
    }
    if (nnh.ended || ops >= budget) return -1;
    ops++;
    if (nnh.decision.active)
        return snprintf(buf, cap, "{\"version\":1,\"method\":\"decision.cancel\",\"params\":{\"sessionId\":"
                        "\"bench\",\"requestId\":\"c%ld\",\"expectedRevision\":%ld%s,\"decisionId\":"
                        "\"decision-%d\"}}", ops, nnh.revision, delta, nnh.decision.serial);
    stepped++;
    if (stepped % 2 == 0)
        return snprintf(buf, cap, "{\"version\":1,\"method\":\"game.move\",\"params\":{\"sessionId\":"
                        "\"bench\",\"requestId\":\"r%ld\",\"expectedRevision\":%ld%s,\"direction\":\"%s\"}}",
                        ops, nnh.revision, delta, directions[(stepped / 2) % 8]);
    return snprintf(buf, cap, "{\"version\":1,\"method\":\"game.search\",\"params\":{\"sessionId\":"
                    "\"bench\",\"requestId\":\"r%ld\",\"expectedRevision\":%ld%s}}", ops, nnh.revision, delta);
}

void nnh_io_write_response(const char *data, int len)
{
    if (!data) return;
    response_bytes += (unsigned long long) len;
    if (dump) fwrite(data, 1, (size_t) len, stdout);
}

void nnh_io_random_bytes(unsigned char *out, int n) { memset(out, 7, (size_t) n); }
long long nnh_io_wall_clock(void) { return 1700000000LL; }

/* Called by main() through nnh_wait_for_create: parse SEED and OPS once. */
__attribute__((constructor)) static void bench_arguments(void)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    char args[256];
    size_t n;
    if (!f) return;
    n = fread(args, 1, sizeof args - 1, f);
    fclose(f);
    args[n] = 0;
    {
        char *p = args + strlen(args) + 1;
        if (p < args + n) { seed = atol(p); p += strlen(p) + 1; }
        if (p < args + n) { budget = atol(p); p += strlen(p) + 1; }
        for (; p < args + n; p += strlen(p) + 1) {
            if (!strcmp(p, "cpu")) clock_id = CLOCK_PROCESS_CPUTIME_ID;
            if (!strcmp(p, "delta")) delta = ",\"delta\":true";
            if (!strcmp(p, "dump")) dump = 1;
        }
    }
}
