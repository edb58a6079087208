/* io_wasm.c - the JavaScript boundary of the WebAssembly build.
 *
 * nnh_js_next_request() is the driver's one suspension point: a plain
 * import, declared once in io_wasm.js, that the host suspends on - with
 * JSPI (WebAssembly.Suspending) in the JSPI build, with ASYNCIFY in the
 * fallback build; both builds link these same objects. Responses go out
 * synchronously through Module.nnhOnResponse (nnh_js_respond, io_wasm.js).
 * The host speaks exactly the NDJSON of nhdriver. */
#ifdef __EMSCRIPTEN__
#include "hack.h"
#include "nnh_state.h"
#include "nnh_io.h"
#include <emscripten.h>



EM_JS(void, nnh_js_random, (unsigned char *out, int n), {
    const bytes = new Uint8Array(n);
    (globalThis.crypto || require('crypto').webcrypto).getRandomValues(bytes);
    HEAPU8.set(bytes, out);
});

EM_JS(double, nnh_js_now, (void), { return Math.floor(Date.now() / 1000); });

int nnh_playground_enter(void)
{
    static const char *const empty[] = { "record", "logfile", "xlogfile", "perm" };
    int i;
    FILE *f;
    if (chdir("/nh")) return -1;
    for (i = 0; i < 4; i++)
        if ((f = fopen(empty[i], "a")) != NULL) fclose(f);
    return 0;
}

int nnh_io_read_request(char *buf, int cap)
{
    int n = nnh_js_next_request(buf, cap);
    if (n >= 0 && n < cap) {
        if (n && buf[n - 1] == '\r') n--; /* as natively: one CR before LF */
        buf[n] = 0;
    }
    return n;
}

void nnh_io_write_response(const char *data, int len)
{
    if (!data) return;
    if (len && data[len - 1] == '\n') len--; /* the host frames lines itself */
    nnh_js_respond(data, len);
}

void nnh_io_random_bytes(unsigned char *out, int n) { nnh_js_random(out, n); }

long long nnh_io_wall_clock(void) { return (long long) nnh_js_now(); }
#endif
