// engine-builds.js - the two WebAssembly builds of the engine, and how to run one.
//
// One module for the page's core worker (engine-host.js) and for the Node
// scripts (wasm-driver.mjs, bench-mix.mjs), so the builds are chosen and
// started the same way everywhere:
//
//   jspi       the engine's stack is suspended by the engine itself at its one
//              blocking import (WebAssembly.Suspending around the import,
//              WebAssembly.promising around main). Smaller and faster.
//   asyncify   the fallback for engines without JSPI: the same objects,
//              linked with ASYNCIFY instrumentation.
//
// Both builds link the same objects and answer byte for byte alike; the
// choice is about speed only (tests/engine/test_determinism.py).

export const BUILDS = ['jspi', 'asyncify'];

/** The build this JavaScript engine can run best: 'jspi' when it has
 *  WebAssembly.Suspending and WebAssembly.promising (Chromium >= 137, Node 24
 *  with --experimental-wasm-jspi), else 'asyncify'. */
export function detectBuild() {
  return typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function'
    ? 'jspi' : 'asyncify';
}

const INPUT_IMPORT = 'nnh_js_next_request';

/** Start one engine instance of `build` from a compiled module.
 *  `factory` is the build's createNetHackEngine; `options` the Module
 *  options (nnhNextRequest, nnhOnResponse, print, …). Resolves with the
 *  Module once the engine runs (it then waits in nnhNextRequest), rejects if
 *  it cannot start. `onFailure(error)` is called once if the engine stops on
 *  an error later (a trap, an abort). NetHack's own exit() is no failure:
 *  emcc throws it as ExitStatus - out of main's promise with JSPI (ignored
 *  here), or out of a resumed stack with Asyncify (an unhandled rejection
 *  the host ignores) - and the host has had every response by then.
 * @param {string} build 'jspi' or 'asyncify' (BUILDS)
 * @param {(options: Record<string, any>) => Promise<any>} factory
 * @param {WebAssembly.Module} compiled
 * @param {Record<string, any>} options
 * @param {((error: any) => void) | null} [onFailure]
 * @returns {Promise<any>} the Module */
export function startEngine(build, factory, compiled, options, onFailure) {
  return new Promise((resolveStarted, rejectStarted) => {
    let failed = false;
    /** @type {any} */
    let main = null; // the instance's own main export (JSPI), taken at instantiation
    const fail = (error) => {
      if (failed || (error && error.name === 'ExitStatus')) return;
      failed = true;
      rejectStarted(error); // no effect once started
      if (onFailure) onFailure(error);
    };
    factory({
      ...options,
      instantiateWasm(imports, receive) {
        if (build === 'jspi') {
          // the import is declared once (wasm/driver/io_wasm.js); -lexports.js
          // keeps its name, so it is wrapped by name, not found by guesswork
          // (the jspi build is only ever picked where JSPI exists: detectBuild)
          const Suspending = /** @type {new (imported: Function) => unknown} */ (WebAssembly.Suspending);
          imports.env[INPUT_IMPORT] = new Suspending(imports.env[INPUT_IMPORT]);
        }
        WebAssembly.instantiate(compiled, imports).then((instance) => {
          main = instance.exports.main; // by name, from the instance: no emcc internals
          receive(instance, compiled);
        }, fail);
        return {};
      },
      onAbort(what) {
        fail(new Error(`engine aborted: ${what}`));
      },
    }).then((module) => {
      if (build === 'jspi') {
        // INVOKE_RUN=0: main runs here, on its own suspendable stack.
        const promising = /** @type {(exported: Function) => (...args: any[]) => Promise<any>} */ (WebAssembly.promising);
        promising(main)(0, 0).catch(fail);
      }
      resolveStarted(module);
    }, fail);
  });
}
