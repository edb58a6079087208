// jspi.d.ts - WebAssembly's JavaScript Promise Integration (JSPI), which
// TypeScript's lib does not have yet: the engine's JSPI build wraps its one
// blocking import in Suspending and runs main through promising
// (web/src/worker/engine-builds.js). Optional: a browser without JSPI has neither.
export {};

declare global {
  namespace WebAssembly {
    var Suspending: (new (imported: Function) => unknown) | undefined;
    var promising: ((exported: Function) => (...args: any[]) => Promise<any>) | undefined;
  }
}
