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
// Module.nnhNextRequest() resolves with the next request as raw bytes (a
// Uint8Array: malformed UTF-8 and NUL reach C validation exactly as they do
// natively), or as a string (encoded straight into the engine's memory, no
// intermediate copy), or null for end of input.
mergeInto(LibraryManager.library, {
  $nnhCopyRequest: function (request, buf, cap) {
    if (request === null || request === undefined) return -1;
    if (typeof request === 'string') {
      // UTF-8 never takes more than 3 bytes per UTF-16 unit: a text that can
      // still overflow is measured first, so it is reported, never cut.
      if (request.length * 3 >= cap && lengthBytesUTF8(request) >= cap) return cap;
      return nnhEncoder.encodeInto(request, HEAPU8.subarray(buf, buf + cap)).written;
    }
    if (request.length >= cap) return cap;
    HEAPU8.set(request, buf);
    return request.length;
  },
  $nnhCopyRequest__deps: ['$nnhEncoder'],
  $nnhEncoder: 'new TextEncoder()',
  nnh_js_next_request__deps: ['$nnhCopyRequest'],
#if ASYNCIFY
  nnh_js_next_request: function (buf, cap) {
    return Asyncify.handleAsync(() => Module.nnhNextRequest().then((request) => nnhCopyRequest(request, buf, cap)));
  },
#else
  nnh_js_next_request: function (buf, cap) {
    return Module.nnhNextRequest().then((request) => nnhCopyRequest(request, buf, cap));
  },
#endif
});
