// engine-host.js - the WebAssembly engine host of the core worker.
//
// The build this browser runs best (engine-builds.js: JSPI where
// WebAssembly.Suspending exists, else Asyncify) is compiled once; each game
// gets a fresh instance (NetHack's globals are never reused). The host is
// published as globalThis.nethackEngineHost for
// py/nethack_webmcp/engine/wasm.py:
//
//   const instance = await nethackEngineHost.start();
//   const text = await instance.request(json);   // one JSON response (text)
//   instance.close();                            // idempotent
//
// The engine pulls requests through Module.nnhNextRequest() (a promise the
// engine suspends on) and answers each one exactly once, synchronously,
// through Module.nnhOnResponse(text) before it asks again. Response text is
// handed to Python as it is: Python parses it, JavaScript never does.
import { detectBuild, startEngine } from './engine-builds.js';

let compiled = null;
let createEngine = null;
let engineBuild = null;
let engineUrls = null; // what prepareEngine was given, for the replay build
/** @type {Promise<{factory: any, compiled: WebAssembly.Module, build: string}> | null} */
let replayBuild = null;

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', buffer));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Fetch and compile the engine build this browser runs best, once, and
 *  check its files against identity.json. `urls` is the site config's
 *  engine entry ({builds: {jspi|asyncify: {script, wasm}}, identity}),
 *  resolved by `url`. Resolves with {gameIdentity, build, buildIdentity}:
 *  stored games are keyed by the game identity (the rules), which every
 *  build shares; the build is diagnostics. Rejects with a readable Error. */
export async function prepareEngine(urls, url) {
  const build = detectBuild();
  const scriptUrl = url(urls.builds[build].script);
  const wasmUrl = url(urls.builds[build].wasm);
  const fetched = async (address) => {
    const response = await fetch(address);
    if (!response.ok) throw new Error(`engine: ${address} answered HTTP ${response.status}`);
    return response;
  };
  const [[module, wasmHash], factory, identity, scriptHash] = await Promise.all([
    fetched(wasmUrl).then((response) => {
      const copy = response.clone(); // compiled while streaming, hashed from the copy
      return Promise.all([WebAssembly.compileStreaming(response), copy.arrayBuffer().then(sha256)]);
    }),
    import(/* @vite-ignore */ scriptUrl).then((imported) => imported.default),
    fetched(url(urls.identity)).then((response) => response.json()),
    fetched(scriptUrl).then((response) => response.arrayBuffer()).then(sha256), // the HTTP cache answers
  ]);
  const described = (identity && identity.builds && identity.builds[build]) || {};
  const files = described.files || {};
  if (files['nethack.wasm'] !== wasmHash || files['nethack.js'] !== scriptHash || !identity.gameIdentity) {
    throw new Error(`engine: the ${build} build's nethack.wasm/nethack.js do not match engine/identity.json; `
      + 'rebuild the site (./scripts/build)');
  }
  compiled = module;
  createEngine = factory;
  engineBuild = build;
  engineUrls = { urls, url, identity };
  if (build === 'asyncify') replayBuild = Promise.resolve({ factory, compiled: module, build: `asyncify:${wasmHash}` });
  return { gameIdentity: identity.gameIdentity, build, buildIdentity: described.buildIdentity };
}

/** The Asyncify build, for replays (replay-engine.js: checkpoints need the
 *  unwound stack in memory), whatever build live games run: fetched,
 *  checked against identity.json and compiled once, on first use.
 *  Resolves with {factory, compiled, build}; `build` names the exact build
 *  (its wasm digest), so checkpoints of another build are stale. */
export function prepareReplayBuild() {
  if (replayBuild) return replayBuild;
  if (!engineUrls) return Promise.reject(new Error('the engine is not prepared yet'));
  const { urls, url, identity } = engineUrls;
  replayBuild = (async () => {
    const scriptUrl = url(urls.builds.asyncify.script);
    const response = await fetch(url(urls.builds.asyncify.wasm));
    if (!response.ok) throw new Error(`engine: the replay build answered HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    const [wasmHash, factory, scriptHash] = await Promise.all([
      sha256(bytes),
      import(/* @vite-ignore */ scriptUrl).then((imported) => imported.default),
      fetch(scriptUrl).then((answered) => answered.arrayBuffer()).then(sha256),
    ]);
    const files = (identity.builds && identity.builds.asyncify && identity.builds.asyncify.files) || {};
    if (files['nethack.wasm'] !== wasmHash || files['nethack.js'] !== scriptHash) {
      throw new Error('engine: the asyncify build does not match engine/identity.json; rebuild the site');
    }
    return { factory, compiled: await WebAssembly.compile(bytes), build: `asyncify:${wasmHash}` };
  })();
  replayBuild.catch(() => { replayBuild = null; });
  return replayBuild;
}

// NetHack's exit() at shutdown surfaces as an ExitStatus thrown out of the
// resumed stack, i.e. as an unhandled rejection: it is a normal end.
self.addEventListener('unhandledrejection', (event) => {
  if (event.reason && event.reason.name === 'ExitStatus') event.preventDefault();
});

class EngineInstance {
  constructor() {
    this.waitingForRequest = null; // resolve() of the engine's pending nnhNextRequest
    this.queued = [];              // requests given before the engine asked, in order
    this.answers = [];             // {resolve, reject} of each request sent, in order
    this.failure = null;
    this.closed = false;
  }

  start() {
    return new Promise((resolveStarted, rejectStarted) => {
      startEngine(engineBuild, createEngine, compiled, {
        nnhNextRequest: () => {
          // The engine waits for input: it is ready (first time) or done with
          // the previous request (its response has already been delivered).
          // A request already queued is handed over as a value, so the
          // engine runs on without suspending (a replay's batch).
          resolveStarted(this);
          if (this.closed) return null;
          if (this.queued.length) return this.queued.shift();
          return new Promise((resolveRequest) => { this.waitingForRequest = resolveRequest; });
        },
        nnhOnResponse: (text) => {
          const answer = this.answers.shift();
          if (answer) answer.resolve(text);
        },
        print: () => {},
        printErr: (text) => console.warn(`[nethack] ${text}`),
      }, (error) => this.fail(error)).catch(rejectStarted);
    });
  }

  /** Send one request: its JSON text (a string, encoded straight into the
   *  engine's memory) or raw bytes (a Uint8Array, copied: Pyodide may hand
   *  over a view of its own memory). Resolves with the response text.
   *  Requests sent before earlier ones are answered queue up in order (the
   *  engine answers one at a time). */
  request(json) {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('engine closed'));
    const request = typeof json === 'string' ? json : new Uint8Array(json);
    return new Promise((resolve, reject) => {
      this.answers.push({ resolve, reject });
      const waiting = this.waitingForRequest;
      this.waitingForRequest = null;
      if (waiting) waiting(request);
      else this.queued.push(request);
    });
  }

  /** Many requests (JSON texts, one per line), all queued at once; resolves
   *  with the response texts, one per line. A replay knows its requests in
   *  advance: one crossing from Python, and the engine takes each next
   *  request without suspending. */
  async requestMany(text) {
    const replies = await Promise.all(text.split('\n').map((line) => this.request(line)));
    return replies.join('\n');
  }

  fail(error) {
    if (this.failure) return;
    this.failure = error;
    this.queued = [];
    for (const answer of this.answers.splice(0)) answer.reject(error);
  }

  /** Retire the instance: the engine sees the end of input and exits. */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.queued = [];
    for (const answer of this.answers.splice(0)) answer.reject(new Error('engine closed'));
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
