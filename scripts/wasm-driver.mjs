#!/usr/bin/env node
// wasm-driver.mjs - run the WebAssembly engine under Node with the exact
// NDJSON framing of build/native/nhdriver: one request per line on stdin,
// one response per line on stdout, diagnostics on stderr, EOF ends it.
//
//   node scripts/wasm-driver.mjs [--engine web/dist/engine]
//
// Requests are handed to the engine as raw bytes, so byte-level validation
// (NUL, malformed UTF-8, over-long frames) behaves exactly as natively.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flag = process.argv.indexOf('--engine');
const engineDir = flag > 0 ? resolve(process.argv[flag + 1]) : join(root, 'web', 'dist', 'engine');

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

function nextRequest() {
  if (lines.length) return Promise.resolve(lines.shift());
  flush();
  if (ended) return Promise.resolve(null);
  return new Promise((resolveLine) => waiters.push(resolveLine));
}

// ---- the engine --------------------------------------------------------------
// Responses are buffered and written when the engine next waits for input
// with nothing queued: one write per response would dominate a fast step.
let out = [];
function respond(text) {
  out.push(text, '\n');
}
function flush() {
  if (out.length) {
    process.stdout.write(out.join(''));
    out = [];
  }
}

// emcc 3.1.6's ES-module output still reaches for CommonJS globals under Node.
globalThis.__dirname = engineDir;
globalThis.require = createRequire(import.meta.url);
const { default: createNetHackEngine } = await import(pathToFileURL(join(engineDir, 'nethack.js')).href);
try {
  await createNetHackEngine({
    // emcc 3.1.6 output fetches the .wasm even under Node: hand it the bytes.
    wasmBinary: readFileSync(join(engineDir, 'nethack.wasm')),
    nnhNextRequest: nextRequest,
    nnhOnResponse: respond,
    print: (text) => process.stderr.write(`${text}\n`),
    printErr: (text) => process.stderr.write(`${text}\n`),
  });
} catch (error) {
  // NetHack's exit() surfaces as ExitStatus once input ends: a normal end.
  if (!(error && error.name === 'ExitStatus')) throw error;
}
flush();
