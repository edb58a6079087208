// engine-host.js - the WebAssembly engine host of the core worker.
//
// nethack.wasm is compiled once; each game gets a fresh instance (NetHack's
// globals are never reused). The host is published as
// globalThis.nethackEngineHost for py/nethack_webmcp/engine/wasm.py:
//
//   const instance = await nethackEngineHost.start();
//   const text = await instance.request(bytes);  // one JSON response
//   instance.close();                            // idempotent
//
// The engine pulls requests through Module.nnhNextRequest() (a promise:
// ASYNCIFY suspends the C stack there) and answers each one exactly once,
// synchronously, through Module.nnhOnResponse(text) before it asks again.

let compiled = null;
let createEngine = null;

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Fetch and compile the engine once, and check it against identity.json:
 *  resolves with the identity (its packageIdentity pins every stored game
 *  to this exact engine build). Rejects with a readable Error. */
export async function prepareEngine(scriptUrl, wasmUrl, identityUrl) {
  const fetched = async (url) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`engine: ${url} answered HTTP ${response.status}`);
    return response;
  };
  const [[module, wasmHash], factory, identity, scriptHash] = await Promise.all([
    fetched(wasmUrl).then((response) => {
      const copy = response.clone(); // compiled while streaming, hashed from the copy
      return Promise.all([WebAssembly.compileStreaming(response), copy.arrayBuffer().then(sha256)]);
    }),
    import(/* @vite-ignore */ scriptUrl).then((imported) => imported.default),
    fetched(identityUrl).then((response) => response.json()),
    fetched(scriptUrl).then((response) => response.arrayBuffer()).then(sha256), // the HTTP cache answers
  ]);
  const files = (identity && identity.files) || {};
  if (files['nethack.wasm'] !== wasmHash || files['nethack.js'] !== scriptHash || !identity.packageIdentity) {
    throw new Error('engine: nethack.wasm/nethack.js do not match engine/identity.json; rebuild the site '
      + '(./scripts/build): stored games are pinned to the engine identity');
  }
  compiled = module;
  createEngine = factory;
  return identity;
}

// NetHack's exit() at shutdown surfaces as an ExitStatus thrown out of the
// resumed stack, i.e. as an unhandled rejection: it is a normal end.
self.addEventListener('unhandledrejection', (event) => {
  if (event.reason && event.reason.name === 'ExitStatus') event.preventDefault();
});

class EngineInstance {
  constructor() {
    this.waitingForRequest = null; // resolve() of the engine's pending nnhNextRequest
    this.queued = null;            // a request given before the engine asked
    this.pending = null;           // {resolve, reject} of the request in flight
    this.failure = null;
    this.closed = false;
  }

  start() {
    return new Promise((resolveStarted, rejectStarted) => {
      const fail = (what) => this.fail(new Error(`engine aborted: ${what}`));
      createEngine({
        instantiateWasm: (imports, receive) => {
          WebAssembly.instantiate(compiled, imports).then(
            (instance) => receive(instance, compiled),
            (error) => rejectStarted(error));
          return {};
        },
        nnhNextRequest: () => {
          // The engine waits for input: it is ready (first time) or done with
          // the previous request (its response has already been delivered).
          resolveStarted(this);
          if (this.closed) return Promise.resolve(null);
          if (this.queued) {
            const bytes = this.queued;
            this.queued = null;
            return Promise.resolve(bytes);
          }
          return new Promise((resolveRequest) => { this.waitingForRequest = resolveRequest; });
        },
        nnhOnResponse: (text) => {
          const pending = this.pending;
          this.pending = null;
          if (pending) pending.resolve(text);
        },
        onAbort: fail,
        print: () => {},
        printErr: (text) => console.warn(`[nethack] ${text}`),
      }).catch((error) => {
        if (error && error.name === 'ExitStatus') return;
        rejectStarted(error);
        this.fail(error);
      });
    });
  }

  /** Send one request (Uint8Array); resolves with the response text. */
  request(bytes) {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('engine closed'));
    if (this.pending) return Promise.reject(new Error('engine busy: one request at a time'));
    // Pyodide hands over a Uint8Array view of its own memory: copy it.
    const copy = new Uint8Array(bytes);
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      const waiting = this.waitingForRequest;
      this.waitingForRequest = null;
      if (waiting) waiting(copy);
      else this.queued = copy;
    });
  }

  /** Many requests (JSON texts, one per line) back to back; resolves with
   *  the response texts, one per line (a replay knows them all in advance:
   *  one crossing from Python instead of one per request). */
  async requestMany(text) {
    const encoder = new TextEncoder();
    const replies = [];
    for (const line of text.split('\n')) replies.push(await this.request(encoder.encode(line)));
    return replies.join('\n');
  }

  fail(error) {
    if (this.failure) return;
    this.failure = error;
    const pending = this.pending;
    this.pending = null;
    if (pending) pending.reject(error);
  }

  /** Retire the instance: the engine sees the end of input and exits. */
  close() {
    if (this.closed) return;
    this.closed = true;
    const waiting = this.waitingForRequest;
    this.waitingForRequest = null;
    if (waiting) waiting(null);
  }
}

export const engineHost = {
  async start() {
    if (!compiled) throw new Error('the engine module is not compiled yet');
    return new EngineInstance().start();
  },
};
