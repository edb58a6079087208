// asyncify-node.mjs - the Asyncify WebAssembly build loaded under Node, for the
// scripts that checkpoint it (wasm-checkpoints.mjs, wasm-checkpoint-host.mjs).
// Imported, never run.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { useByteTools } from '../web/src/worker/checkpoints.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** memcmp and zlib for the checkpoints' page scan and compression (checkpoints.js useByteTools).
 *  Plain Uint8Arrays: decode slices what gunzip gives, and a Buffer's slice is a view into a pool. */
export const NODE_BYTE_TOOLS = {
  compare: Buffer.compare,
  gzip: (/** @type {Uint8Array} */ bytes) => new Uint8Array(gzipSync(bytes)),
  gunzip: (/** @type {Uint8Array} */ bytes) => new Uint8Array(gunzipSync(bytes)),
};

/** The value after `name` on the command line, or `fallback`.
 * @param {string} name @param {any} fallback */
export function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
}

/** Load `<engineDir>/asyncify` (default: the built site's engine; `--engine DIR` picks another).
 * @returns {Promise<{factory: (options: any) => any, compiled: WebAssembly.Module, baseName: string}>}
 *   baseName: the name a checkpoint's base carries (`asyncify:<sha256 of the wasm>`) */
export async function loadAsyncify(engineDir = option('--engine', join(root, 'web', 'dist', 'engine'))) {
  const buildDir = join(resolve(engineDir), 'asyncify');
  useByteTools(NODE_BYTE_TOOLS);
  // emcc 3.1.6's ES-module output still reaches for CommonJS globals under Node.
  globalThis.__dirname = buildDir;
  globalThis.require = createRequire(import.meta.url);
  // NetHack's exit() when an instance is closed surfaces as ExitStatus out of
  // a resumed stack: a normal end. emcc's Node glue installs process-wide
  // handlers that rethrow it (once per instance): they are not installed.
  process.on('unhandledRejection', (/** @type {any} */ error) => {
    if (!(error && error.name === 'ExitStatus')) throw error;
  });
  const { default: emccFactory } = await import(pathToFileURL(join(buildDir, 'nethack.js')).href);
  const factory = (/** @type {any} */ options) => {
    const on = process.on;
    // @ts-ignore - a narrowed process.on for the factory's synchronous setup only
    process.on = (event, listener) => (event === 'unhandledRejection' || event === 'uncaughtException'
      ? process : on.call(process, event, listener));
    try {
      return emccFactory(options);
    } finally {
      process.on = on;
    }
  };
  const wasmBytes = readFileSync(join(buildDir, 'nethack.wasm'));
  const compiled = await WebAssembly.compile(wasmBytes);
  return { factory, compiled, baseName: `asyncify:${createHash('sha256').update(wasmBytes).digest('hex')}` };
}
