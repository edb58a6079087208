// worker-globals.d.ts - what the core worker puts on its global scope for
// Python to reach through Pyodide's `js` module (web/src/worker/main.js):
// the durable store, the engine host and the session checkpoints
// (session-resume.js). Typed loosely: Python calls them.
export {};

declare global {
  interface WorkerGlobalScope {
    nethackStorage: any;
    nethackEngineHost: any;
    nethackSessionCheckpoints: any;
    nethackCheckpointer: any;
    nethackRestoredEngineTimes: any; // the background checkpointer (follower.js): tests and the bench read it
  }
}
