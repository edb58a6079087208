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

/** Fetch and compile the engine once. Rejects with a readable Error. */
export async function prepareEngine(scriptUrl, wasmUrl) {
  const [module, factory] = await Promise.all([
    fetch(wasmUrl).then((response) => {
      if (!response.ok) throw new Error(`engine: ${wasmUrl} answered HTTP ${response.status}`);
      return WebAssembly.compileStreaming(response);
    }),
    import(/* @vite-ignore */ scriptUrl).then((imported) => imported.default),
  ]);
  compiled = module;
  createEngine = factory;
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
