#!/usr/bin/env node
// wasm-checkpoint-host.mjs - the Asyncify WebAssembly engine under Node as an
// NDJSON driver (build/native/nhdriver's framing: one request per line on
// stdin, one response per line on stdout) that can also save a checkpoint of
// itself at an input boundary and start from one. The native host's persisted
// checkpoints (py/nethack_webmcp/engine/wasm_node.py, docs/REPLAY.md) are
// these records (web/src/worker/checkpoints.js: linear memory as pages that
// differ from the base, the stack pointer, Asyncify's JS-side state, the
// in-memory files and open descriptors), kept in the native store.
//
//   node scripts/wasm-checkpoint-host.mjs [--engine web/dist/engine]
//
// A line that starts with '{' is a request for the engine. Transport lines
// (below the protocol, like the native driver's #fork) start with '#', are
// answered in order after every request before them, with one JSON line:
//   #identity                 {"identity": {"build", "baseHash", "format"}}
//   #save <meta JSON>         {"checkpoint": {...meta, format, build, baseHash, sha256, bytes: base64}}
//                             (meta: {move, digest, summary}); the engine goes on unchanged
//   #restore <record JSON>    {"restored": {"move"}}: a fresh instance restored from the record
//                             (bytes base64) replaces the engine, after the record is checked
//                             (sha256, build, base, and the journal digest it must claim:
//                             record.expectDigest); else {"error": {"code", "message"}}
//                             (checkpointTampered | checkpointStale | journalChanged), engine unchanged
//                             record.last: no restore follows (a resumed game's engine): no spare is
//                             started for one
// A fresh instance is started ahead (idle) for the next #restore, so a restore
// costs the copy, not an instantiation. EOF ends the host.
import { answerHelp } from './usage.mjs';
import { loadAsyncify } from './asyncify-node.mjs';
import { CheckpointRefused, FORMAT, captureBase, decode, encode, restoreInto, snapshot } from '../web/src/worker/checkpoints.js';
import { ReplayEngine } from '../web/src/worker/replay-engine.js';

answerHelp(import.meta.url);

const { factory, compiled, baseName } = await loadAsyncify();
const start = async () => {
  const began = performance.now();
  const started = await ReplayEngine.start(factory, compiled);
  if (process.env.NNH_HOST_TRACE) process.stderr.write(`instance started in ${(performance.now() - began).toFixed(1)} ms\n`);
  return started;
};

let engine = await start();
const base = await captureBase(engine, baseName);

/** V8 compiles a wasm function (and the glue's JS) when it first runs, so a
 *  host's first seeks would pay for it: a throwaway game first runs the
 *  paths a seek takes (inputs quiet and full, observe, a checkpoint saved,
 *  decoded and restored into another fresh instance). */
async function warmUp() {
  const warm = await start();
  const ask = async (method, params) => JSON.parse(await warm.request(JSON.stringify({ version: 1, method, params })));
  const created = await ask('session.create', { seed: 1, name: 'Warm', createdAt: 1700000000, wizard: true });
  const sessionId = created.sessionId;
  let revision = created.revision;
  const compass = ['north', 'east', 'south', 'west'];
  for (let i = 0; i < 240 && revision != null; i++) {
    const common = { sessionId, expectedRevision: revision, requestId: `warm-${i}`, quiet: i % 4 !== 0 };
    const reply = i % 3 === 2 ? await ask('game.search', { ...common, turns: 1 })
      : await ask('game.move', { ...common, direction: compass[i % 4] });
    if (reply.decision) await ask('decision.cancel', { sessionId, expectedRevision: reply.revision,
                                                        requestId: `warm-c${i}`, decisionId: reply.decision.id });
    revision = reply.error ? null : (await ask('session.observe', { sessionId })).revision;
  }
  const meta = { move: 1, digest: 'warm', summary: null, build: base.build, baseHash: base.hash };
  const state = await decode(await encode(meta, snapshot(warm, base)), base, 'warm');
  const fresh = await start();
  restoreInto(fresh, state, base);
  await fresh.request(JSON.stringify({ version: 1, method: 'session.observe', params: { sessionId } }));
  warm.close();
  fresh.close();
}
await warmUp();
/** @type {Promise<any> | null} */
let spare = null;
const prepareSpare = () => {
  if (!spare) setTimeout(() => { if (!spare) spare = start(); }, 0);
};
prepareSpare();

// ---- output: buffered while more input is queued ---------------------------
let out = [];
let flushing = false;
function emit(text) {
  out.push(text, '\n');
  if (!flushing) {
    flushing = true;
    setImmediate(() => {
      flushing = false;
      if (out.length) process.stdout.write(out.join(''));
      out = [];
    });
  }
}

// ---- input: lines handled strictly in order ---------------------------------
// Requests go to the engine as they arrive (a replay pipelines them); a
// transport line runs once every request before it is answered, and requests
// after it wait for it (a #restore replaces the engine they go to).
let gate = Promise.resolve(); // resolves when the next request may be sent
let answers = Promise.resolve(); // the answers still owed, emitted in order
const failed = (code) => (error) => emit(JSON.stringify({ error: { code, message: String(error && error.stack || error) } }));

async function transport(line) {
  const space = line.indexOf(' ');
  const verb = space < 0 ? line.slice(1) : line.slice(1, space);
  const argument = space < 0 ? '' : line.slice(space + 1);
  await engine.requestMany([]); // the engine is waiting again with its stack unwound
  if (verb === 'identity') return { identity: { build: base.build, baseHash: base.hash, format: FORMAT } };
  if (verb === 'save') {
    const meta = JSON.parse(argument);
    const record = await encode({ move: meta.move, digest: meta.digest, summary: meta.summary ?? null,
                                  build: base.build, baseHash: base.hash }, snapshot(engine, base));
    return { checkpoint: { ...record, bytes: Buffer.from(record.bytes).toString('base64') } };
  }
  if (verb === 'restore') {
    const { expectDigest = null, last = false, ...record } = JSON.parse(argument);
    const began = performance.now();
    let state;
    try {
      state = await decode({ ...record, bytes: new Uint8Array(Buffer.from(record.bytes || '', 'base64')) }, base,
        expectDigest);
    } catch (error) {
      if (error instanceof CheckpointRefused) return { error: { code: error.code, message: error.message } };
      throw error;
    }
    const decoded = performance.now();
    const fresh = spare ? await spare : await start();
    spare = null;
    const ready = performance.now();
    restoreInto(fresh, state, base);
    if (process.env.NNH_HOST_TRACE) {
      process.stderr.write(`restore: decode ${(decoded - began).toFixed(1)} wait ${(ready - decoded).toFixed(1)} `
        + `copy ${(performance.now() - ready).toFixed(1)} ms\n`);
    }
    const old = engine;
    engine = fresh;
    // closed (NetHack's shutdown) and the next spare started once this host is idle
    setTimeout(() => old.close(), 0);
    if (!last) prepareSpare();
    return { restored: { move: record.move } };
  }
  return { error: { code: 'unknownTransport', message: `unknown transport line #${verb}` } };
}

function handle(line) {
  if (line.startsWith('#')) {
    const result = answers.then(() => transport(line));
    gate = result.then(() => {}, () => {});
    answers = result.then((answer) => emit(JSON.stringify(answer)), failed('hostFailed'));
  } else {
    const reply = gate.then(() => engine.request(line));
    answers = answers.then(() => reply).then(emit, failed('engineFailed'));
  }
}

let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let at = pending.indexOf('\n');
  while (at >= 0) {
    const line = pending.slice(0, at);
    pending = pending.slice(at + 1);
    if (line) handle(line);
    at = pending.indexOf('\n');
  }
});
process.stdin.on('end', () => {
  answers.then(() => {
    engine.close();
    process.stdout.write(out.join(''), () => process.exit(0));
  });
});
