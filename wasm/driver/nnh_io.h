/* nnh_io.h - the transport and the host: one implementation per build.
 *
 * io_native.c + native_playground.c (stdio NDJSON, a temporary game
 * directory), io_wasm.c (the JavaScript host's request queue and MEMFS) and
 * wasm/bench/io_bench.c (an in-process script for measurement) each provide
 * every function below; the rest of the driver never knows which. */
#ifndef NNH_IO_H
#define NNH_IO_H

/* Block until the next request line and copy it (without its newline, NUL-
 * terminated) into buf. Returns its length; a line that does not fit is
 * consumed whole and reported as cap, so validation refuses it as too
 * large. Returns -1 at end of input. */
int nnh_io_read_request(char *buf, int cap);

/* Write one response (data, len bytes, ending in a newline). A NULL data
 * flushes whatever is buffered. */
void nnh_io_write_response(const char *data, int len);

/* n bytes of host randomness, for what is independent of the seed (a
 * session ID, a seed nobody chose). Can't fail. */
void nnh_io_random_bytes(unsigned char *out, int n);

/* The host's clock in seconds, for a createdAt nobody chose. */
long long nnh_io_wall_clock(void);

/* Make a fresh, private game directory the working directory, with
 * NetHack's data in reach. Returns 0, or -1 when it cannot be prepared. */
int nnh_playground_enter(void);

#ifndef __EMSCRIPTEN__
/* Native replay checkpoints only (io_native.c's "#fork"): in a forked child,
 * copy the game directory to a fresh one and make that the working
 * directory (removed at the child's exit). Returns 0, or -1. */
int nnh_playground_fork(void);
#endif

#ifdef __EMSCRIPTEN__
/* The WebAssembly host's import (io_wasm.js), called only by io_wasm.c:
 * copies the host's next request (without the line feed) into buf and
 * returns its length; cap or more means too large (validation reports
 * tooLarge); -1 means end of input. Suspends until the host has one. */
int nnh_js_next_request(char *buf, int cap);
/* Hands one response (len bytes of UTF-8, no line feed) to the host's
 * Module.nnhOnResponse as a string; never suspends. */
void nnh_js_respond(const char *data, int len);
#endif

#endif
