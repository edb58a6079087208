#!/usr/bin/env node
// wasm-driver.mjs - run the WebAssembly engine under Node with the exact
// NDJSON framing of build/native/nhdriver: one request per line on stdin,
// one response per line on stdout, diagnostics on stderr, EOF ends it.
//
//   node [--experimental-wasm-jspi] scripts/wasm-driver.mjs [--engine web/dist/engine]
//        [--build jspi|asyncify]
//
// The build is feature-detected as in the page (JSPI where this Node has
// WebAssembly.Suspending: Node 24 with --experimental-wasm-jspi, else the
// Asyncify build); --build forces one. The chosen build is named on stderr.
// Requests are handed to the engine as raw bytes, so byte-level validation
// (NUL, malformed UTF-8, over-long frames) behaves exactly as natively.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { detectBuild, startEngine } from '../web/src/worker/engine-builds.js';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const engineDir = resolve(option('--engine', join(root, 'web', 'dist', 'engine')));
const build = option('--build', detectBuild());
if (build === 'jspi' && detectBuild() !== 'jspi') {
  process.stderr.write('wasm-driver: this Node has no JSPI (WebAssembly.Suspending); run Node 24 with '
    + '--experimental-wasm-jspi, or --build asyncify\n');
  process.exit(2);
}

// ---- stdin as a queue of byte lines ----------------------------------------
const lines = [];
const waiters = [];
let pending = Buffer.alloc(0);
let ended = false;

function deliver(line) {
  const waiter = waiters.shift();
  if (waiter) waiter(line);
  else lines.push(line);
}

process.stdin.on('data', (chunk) => {
  pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
  let start = 0;
  for (let i = pending.indexOf(10, start); i >= 0; i = pending.indexOf(10, start)) {
    deliver(new Uint8Array(pending.subarray(start, i)));
    start = i + 1;
  }
  pending = pending.subarray(start);
});
process.stdin.on('end', () => {
  if (pending.length) deliver(new Uint8Array(pending));
  pending = Buffer.alloc(0);
  ended = true;
  while (waiters.length) waiters.shift()(null);
});

// A line already read is handed over as a value: the engine then takes it
// without suspending (io_wasm.js); only an empty queue costs a suspension.
function nextRequest() {
  if (lines.length) return lines.shift();
  if (ended) return null;
  return new Promise((resolveLine) => { waiters.push(resolveLine); });
}

// ---- the engine --------------------------------------------------------------
// Responses are buffered while more requests are queued (a pipelined
// replay: one write per response would dominate a fast step) and written as
// soon as none is - the host is then waiting for this answer, and the engine
// may be about to exit (session.close) rather than ask again.
let out = [];
function respond(text) {
  out.push(text, '\n');
  if (!lines.length) flush();
}
function flush() {
  if (out.length) {
    process.stdout.write(out.join(''));
    out = [];
  }
}

// emcc 3.1.6's ES-module output still reaches for CommonJS globals under Node.
const buildDir = join(engineDir, build);
globalThis.__dirname = buildDir;
globalThis.require = createRequire(import.meta.url);
// NetHack's exit() surfaces as ExitStatus: out of main's promise with JSPI
// (startEngine ignores it), as an unhandled rejection out of a resumed stack
// with Asyncify. Either way the engine is done and has been answered.
process.on('unhandledRejection', (/** @type {any} */ error) => {
  if (!(error && error.name === 'ExitStatus')) throw error;
});
process.stderr.write(`wasm-driver: ${build} build\n`);
const { default: factory } = await import(pathToFileURL(join(buildDir, 'nethack.js')).href);
// emcc 3.1.6 output fetches the .wasm even under Node: compile the bytes here.
const compiled = await WebAssembly.compile(readFileSync(join(buildDir, 'nethack.wasm')));
await startEngine(build, factory, compiled, {
  nnhNextRequest: nextRequest,
  nnhOnResponse: respond,
  print: (text) => process.stderr.write(`${text}\n`),
  printErr: (text) => process.stderr.write(`${text}\n`),
}, (error) => {
  throw error;
});
