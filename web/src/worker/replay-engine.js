// replay-engine.js - an engine instance of the Asyncify build that a replay
// owns: requests in, response texts out, and a checkpoint of its whole state
// whenever it waits for input (checkpoints.js takes and restores it).
//
// Replays always run on the Asyncify build, whatever the live game uses: a
// linear-memory snapshot holds the C stack only where the build unwinds it
// into memory (Asyncify does, at its one import, nnh_js_next_request); JSPI
// keeps the suspended stack outside memory, so a JSPI snapshot would miss the
// continuation. Both builds answer byte for byte alike (tests/engine/
// test_determinism.py), so a replay on Asyncify reproduces a JSPI game.
//
// Environment-neutral: the page's worker and Node (scripts, tests) pass the
// build's factory (createNetHackEngine) and its compiled module.
import { startEngine } from './engine-builds.js';

export class ReplayEngine {
  constructor() {
    /** @type {any} the emcc Module (FS, Asyncify, stackSave, ...) */
    this.module = null;
    /** @type {any} the instance's linear memory (a WebAssembly.Memory) */
    this.memory = null;
    this.waiting = null; // resolve() of the engine's pending request, once it waits
    this.queued = [];
    this.answers = [];
    this.failure = null;
    this.closed = false;
  }

  /** A fresh instance, waiting for its first request (nothing created yet).
   *  @param {(options: Record<string, any>) => Promise<any>} factory
   *  @param {WebAssembly.Module} compiled the Asyncify build */
  static async start(factory, compiled) {
    const engine = new ReplayEngine();
    let started;
    const ready = new Promise((resolve) => { started = resolve; });
    const wrapped = (options) => factory({
      ...options,
      instantiateWasm(imports, receive) {
        // the memory is the instance's one exported memory, whatever emcc minified its name to
        return options.instantiateWasm(imports, (instance, module) => {
          engine.memory = /** @type {WebAssembly.Memory} */ (Object.values(instance.exports)
            .find((value) => value instanceof WebAssembly.Memory));
          receive(instance, module);
        });
      },
    });
    engine.module = await startEngine('asyncify', wrapped, compiled, {
      nnhNextRequest: () => {
        started();
        if (engine.closed) return null;
        if (engine.queued.length) return engine.queued.shift();
        return new Promise((resolve) => { engine.waiting = resolve; });
      },
      nnhOnResponse: (text) => {
        const answer = engine.answers.shift();
        if (answer) answer.resolve(text);
      },
      print: () => {},
      printErr: () => {},
      // main's argv is in linear memory: under Node emcc would pass the host
      // script's own arguments, and the base (a fresh instance's memory) would
      // then differ from one command line to the next
      arguments: [],
    }, (error) => engine.fail(error));
    await ready;
    await settled(engine);
    return engine;
  }

  /** One request (JSON text) → its response text; requests given before
   *  earlier ones are answered queue up in order. */
  request(text) {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('replay engine closed'));
    return new Promise((resolve, reject) => {
      this.answers.push({ resolve, reject });
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting) waiting(text);
      else this.queued.push(text);
    });
  }

  /** Many requests at once (a replay knows them in advance): the engine
   *  takes each next one without suspending. Resolves once the engine waits
   *  again after the last, so a checkpoint can be taken at once. */
  async requestMany(texts) {
    const replies = await Promise.all(texts.map((text) => this.request(text)));
    await settled(this);
    return replies;
  }

  /** True when the engine is suspended in nnh_js_next_request with its
   *  stack unwound into memory: the only moment a checkpoint is exact. */
  get quiescent() {
    const asyncify = this.module && this.module.Asyncify;
    return Boolean(this.waiting && asyncify && asyncify.state === asyncify.State.Normal && asyncify.currData
      && asyncify.exportCallStack.length === 0 && !this.queued.length && !this.answers.length);
  }

  fail(error) {
    if (this.failure) return;
    this.failure = error;
    for (const answer of this.answers.splice(0)) answer.reject(error);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.queued = [];
    for (const answer of this.answers.splice(0)) answer.reject(new Error('replay engine closed'));
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(null);
  }
}

/** Resolve once the engine has finished unwinding into its wait: the
 *  response is delivered synchronously before the engine asks again, and
 *  the unwind completes in the same task, so one macrotask is enough. */
function settled(engine) {
  return new Promise((resolve, reject) => {
    const check = (tries) => {
      if (engine.failure) reject(engine.failure);
      else if (engine.quiescent || engine.closed) resolve(undefined);
      else if (tries > 1000) reject(new Error('replay engine: never reached its next wait for input'));
      else setTimeout(() => check(tries + 1), 0);
    };
    check(0);
  });
}
