// io_wasm.js - the engine's one blocking import, for both WebAssembly builds.
//
// A --js-library (wasm/engine.mk), so the import is declared once and the
// C side (io_wasm.c) is the same object in both builds:
//   JSPI build:     nnh_js_next_request returns a Promise; the host wraps the
//                   import in WebAssembly.Suspending, so the engine's stack is
//                   suspended by the engine itself (no instrumentation).
//   ASYNCIFY build: the same promise, awaited through Asyncify.handleAsync
//                   (nnh_js_next_request is listed in ASYNCIFY_IMPORTS).
//
// Module.nnhNextRequest() gives the next request as raw bytes (a Uint8Array:
// malformed UTF-8 and NUL reach C validation exactly as they do natively), or
// as a string (encoded straight into the engine's memory, no intermediate
// copy), or null for end of input - or a promise of one of those. A request
// the host already has is returned as it is: then nothing suspends (JSPI
// suspends only on a promise; Asyncify is not even entered), which is what
// makes queued requests (replays) and synchronous agents cheap.
mergeInto(LibraryManager.library, {
  $nnhCopyRequest: function (request, buf, cap) {
    if (request === null || request === undefined) return -1;
    if (typeof request === 'string') {
      // UTF-8 never takes more than 3 bytes per UTF-16 unit: a text that can
      // still overflow is measured first, so it is reported, never cut.
      if (request.length * 3 >= cap && lengthBytesUTF8(request) >= cap) return cap;
      return nnhEncoder.encodeInto(request, nnhRequestView(buf, cap)).written;
    }
    if (request.length >= cap) return cap;
    HEAPU8.set(request, buf);
    return request.length;
  },
  $nnhCopyRequest__deps: ['$nnhEncoder', '$nnhRequestView'],
  // The engine reads every request into the same buffer: its view is made
  // once (again only if the memory grew), not once per request.
  $nnhRequestView__deps: ['$nnhView'],
  $nnhView: '{}',
  $nnhRequestView: function (buf, cap) {
    if (nnhView.heap !== HEAPU8 || nnhView.buf !== buf || nnhView.cap !== cap) {
      nnhView.heap = HEAPU8;
      nnhView.buf = buf;
      nnhView.cap = cap;
      nnhView.bytes = HEAPU8.subarray(buf, buf + cap);
    }
    return nnhView.bytes;
  },
  $nnhEncoder: 'new TextEncoder()',
  // A response is decoded once, at its known length, straight from the
  // engine's memory: not UTF8ToString, whose scan for a NUL byte walked the
  // whole 6-7 KB response again in JavaScript (~5% of a step).
  $nnhDecoder: 'new TextDecoder()',
  nnh_js_respond__deps: ['$nnhDecoder'],
  nnh_js_respond: function (data, len) {
    Module.nnhOnResponse(nnhDecoder.decode(HEAPU8.subarray(data, data + len)));
  },
  nnh_js_next_request__deps: ['$nnhCopyRequest'],
#if ASYNCIFY
  nnh_js_next_request: function (buf, cap) {
    // Asyncify enters an import twice when it suspends: to start (Normal
    // state) and to resume (Rewinding), where handleAsync hands back the
    // awaited result without calling its function again.
    let request = null;
    if (Asyncify.state === Asyncify.State.Normal) {
      request = Module.nnhNextRequest();
      if (!(request instanceof Promise)) return nnhCopyRequest(request, buf, cap);
    }
    return Asyncify.handleAsync(() => request.then((ready) => nnhCopyRequest(ready, buf, cap)));
  },
#else
  nnh_js_next_request: function (buf, cap) {
    const request = Module.nnhNextRequest();
    if (!(request instanceof Promise)) return nnhCopyRequest(request, buf, cap);
    return request.then((ready) => nnhCopyRequest(ready, buf, cap));
  },
#endif
});
