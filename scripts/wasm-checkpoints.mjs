#!/usr/bin/env node
// wasm-checkpoints.mjs - Asyncify checkpoints of the WebAssembly engine under
// Node (web/src/worker/checkpoints.js, docs/REPLAY.md "Page checkpoints").
//
//   node scripts/wasm-checkpoints.mjs check <game.json> [--at k,k2,...] [--span 100]
//       For each k: a straight run of the journal with full responses; a
//       checkpoint taken at k (encoded, compressed, decoded again) restored
//       into a fresh instance, then the same requests k+1..k+span sent to it;
//       every response must equal the straight run's byte for byte. Then a
//       tampered checkpoint (one byte changed), a stale one (another base) and
//       one claimed for another journal must be refused. Prints one JSON line.
//   node scripts/wasm-checkpoints.mjs verify <game.json> [--seeks 12]
//       Seeks to random moves on checkpoints (checkpoint-replay.js) each equal a
//       straight run's session.observe at that move; then one stored checkpoint
//       gets a byte changed and a reopen must refuse it and rebuild.
//   node scripts/wasm-checkpoints.mjs bench <game.json> [--sizes 1000,10000,50000] [--seeks 40]
//       For each size: open (one verified quiet replay of the first N inputs,
//       checkpoints spaced by replay cost), seek p50/p95 to random moves
//       (restore the nearest checkpoint into a fresh instance, replay the rest
//       verified, observe), resume (an engine at the last move), checkpoint
//       bytes per 10k inputs. One JSON line per size.
//
//   node scripts/wasm-checkpoints.mjs persisted <game.json> --dir DIR [--inputs N] [--seeks 40]
//       The native host's persisted checkpoints: the same records in files
//       (DIR/<move>.ckpt: JSON meta line, then the compressed state), so they
//       outlive the process. Opens the game's first N inputs (reusing DIR's
//       checkpoints when every one is this journal's, build's and intact, else
//       rebuilding them), seeks to random moves (each verified), resumes.
//       One JSON line: {inputs, rebuilt, refused, openMs, seekP50Ms,
//       seekP95Ms, resumeMs, checkpoints, checkpointBytesPer10k, frames}
//       (frames: move -> the map rows shown, for the tests).
// <game.json> is {"info": SessionInfo, "entries": [JournalEntry...]}, as
// scripts/bench-replay --dump writes it. --engine DIR picks the engine
// (default web/dist/engine; the asyncify build is always the one used).
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerHelp } from './usage.mjs';
import { loadAsyncify, option } from './asyncify-node.mjs';
import { CheckpointRefused, captureBase, decode, encode, restoreInto, snapshot } from '../web/src/worker/checkpoints.js';
import { ReplayEngine } from '../web/src/worker/replay-engine.js';
import { Replayer } from '../web/src/worker/checkpoint-replay.js';

answerHelp(import.meta.url);

const [mode, gamePath] = process.argv.slice(2);
if (!['check', 'bench', 'verify', 'persisted'].includes(mode) || !gamePath) {
  process.stderr.write('usage: wasm-checkpoints.mjs check|verify|bench|persisted <game.json> (see --help)\n');
  process.exit(2);
}

const { factory, compiled, baseName } = await loadAsyncify();
const start = () => ReplayEngine.start(factory, compiled);

const game = JSON.parse(readFileSync(gamePath, 'utf8'));
const moves = game.entries.filter((entry) => entry.state === 'completed' && entry.receipt);

function createRequest() {
  return JSON.stringify({ version: 1, method: 'session.create', params: game.info.create });
}

async function check() {
  const span = Number(option('--span', '100'));
  const ats = option('--at', '0,1,37,150').split(',').map(Number);
  const base = await captureBase(await start(), baseName);
  const results = [];
  for (const at of ats) {
    const last = Math.min(moves.length, at + span);
    const straight = await start();
    await straight.request(createRequest());
    await straight.requestMany(moves.slice(0, at).map((entry) => JSON.stringify(entry.request)));
    const meta = { move: at, digest: `test-${at}`, build: base.build, baseHash: base.hash };
    const record = await encode(meta, snapshot(straight, base));
    const tail = moves.slice(at, last).map((entry) => JSON.stringify(entry.request));
    const expected = await straight.requestMany(tail);
    straight.close();

    const fresh = await start();
    restoreInto(fresh, await decode(record, base, meta.digest), base);
    const got = await fresh.requestMany(tail);
    fresh.close();
    const differing = got.findIndex((text, i) => text !== expected[i]);
    const errors = got.filter((text) => JSON.parse(text).error).length;
    results.push({ at, replayed: tail.length, errors, identical: differing < 0 && got.length === expected.length,
                   firstDifference: differing < 0 ? null : at + differing + 1, bytes: record.bytes.length });
  }
  // refusals
  const engine = await start();
  await engine.request(createRequest());
  const meta = { move: 0, digest: 'journal-a', build: base.build, baseHash: base.hash };
  const record = await encode(meta, snapshot(engine, base));
  engine.close();
  const refusal = async (what, changed, digest = 'journal-a', against = base) => {
    try {
      await decode(changed, against, digest);
      return { what, refused: false };
    } catch (error) {
      return { what, refused: error instanceof CheckpointRefused, code: error.code, message: error.message };
    }
  };
  const flipped = record.bytes.slice();
  flipped[flipped.length >> 1] ^= 1;
  const refusals = [
    await refusal('tampered bytes', { ...record, bytes: flipped }),
    await refusal('another base', record, 'journal-a', { ...base, hash: 'other' }),
    await refusal('another journal', record, 'journal-b'),
  ];
  process.stdout.write(`${JSON.stringify({ results, refusals })}\n`);
}

function percentile(values, fraction) {
  const ordered = [...values].sort((a, b) => a - b);
  return ordered[Math.min(ordered.length - 1, Math.round(fraction * (ordered.length - 1)))];
}

async function bench() {
  const sizes = option('--sizes', '1000,10000,50000').split(',').map(Number);
  const seeks = Number(option('--seeks', '40'));
  const base = await captureBase(await start(), baseName);
  for (const size of sizes) {
    const inputs = moves.slice(0, size);
    const store = new Map(); // move -> record: what IndexedDB holds in the page
    const replayer = new Replayer({ start, base, info: game.info, moves: inputs,
                                    save: async (record) => { store.set(record.move, record); },
                                    load: async (move) => store.get(move) || null });
    let started = performance.now();
    await replayer.open();
    const openMs = performance.now() - started;
    let seed = size;
    const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const times = [];
    for (let i = 0; i < seeks; i++) {
      const move = Math.floor(random() * (inputs.length + 1));
      started = performance.now();
      await replayer.frameAt(move);
      times.push(performance.now() - started);
    }
    started = performance.now();
    const resumed = await replayer.resume();
    const resumeMs = performance.now() - started;
    resumed.close();
    // a second open finds its checkpoints stored: what a reload costs
    const reopened = new Replayer({ start, base, info: game.info, moves: inputs, save: async () => {},
                                    load: async (move) => store.get(move) || null, known: [...store.keys()] });
    started = performance.now();
    await reopened.open();
    const reopenMs = performance.now() - started;
    started = performance.now();
    (await reopened.resume()).close();
    const coldResumeMs = performance.now() - started;
    replayer.close();
    reopened.close();
    const bytes = [...store.values()].reduce((sum, record) => sum + record.bytes.length, 0);
    process.stdout.write(`${JSON.stringify({
      inputs: inputs.length, openMs: round(openMs), reopenMs: round(reopenMs), checkpoints: store.size,
      seekP50Ms: round(percentile(times, 0.5)), seekP95Ms: round(percentile(times, 0.95)),
      resumeMs: round(resumeMs), reopenResumeMs: round(coldResumeMs),
      checkpointBytesPer10k: Math.round(bytes * 10000 / Math.max(1, inputs.length)),
    })}\n`);
  }
}

/** Seeks on a Replayer equal a straight run's observation; then a stored
 *  checkpoint with one byte changed is refused at reopen and rebuilt. */
async function verify() {
  const seeks = Number(option('--seeks', '12'));
  const base = await captureBase(await start(), baseName);
  const store = new Map();
  const options = { start, base, info: game.info, moves, save: async (record) => { store.set(record.move, record); },
                    load: async (move) => store.get(move) || null, spacingMs: 5 };
  const replayer = new Replayer(options);
  await replayer.open();
  const observe = JSON.stringify({ version: 1, method: 'session.observe', params: { sessionId: game.info.sessionId } });
  const straightAt = async (move) => {
    const engine = await start();
    await engine.request(createRequest());
    await engine.requestMany(moves.slice(0, move).map((entry) =>
      JSON.stringify({ ...entry.request, params: { ...entry.request.params, quiet: true } })));
    const text = await engine.request(observe);
    engine.close();
    return text;
  };
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const targets = Array.from({ length: seeks }, () => Math.floor(random() * (moves.length + 1)));
  const mismatches = [];
  for (const move of targets) {
    const frame = await replayer.frameAt(move);
    if (JSON.stringify(frame) !== JSON.stringify(JSON.parse(await straightAt(move)))) mismatches.push(move);
  }
  replayer.close();
  const victim = [...store.keys()].sort((a, b) => a - b)[1];
  const record = store.get(victim);
  const bytes = record.bytes.slice();
  bytes[bytes.length >> 1] ^= 1;
  store.set(victim, { ...record, bytes });
  const reopened = new Replayer({ ...options, known: [...store.keys()] });
  const { rebuilt } = await reopened.open();
  const move = Math.min(moves.length, victim + 3);
  const equal = JSON.stringify(await reopened.frameAt(move)) === JSON.stringify(JSON.parse(await straightAt(move)));
  reopened.close();
  process.stdout.write(`${JSON.stringify({ seeks: targets.length, checkpoints: replayer.checkpoints.length, mismatches,
    reopenAfterTamper: { rebuilt, refused: reopened.refusals }, seekAfterTamperEqual: equal })}\n`);
}

/** Checkpoint records as files: one per move, a JSON line of what it claims, then its bytes. */
function fileStore(dir) {
  mkdirSync(dir, { recursive: true });
  const path = (move) => join(dir, `${move}.ckpt`);
  return {
    known: () => readdirSync(dir).filter((name) => /^\d+\.ckpt$/.test(name)).map((name) => Number(name.split('.')[0])),
    save: async (record) => {
      const { bytes, ...meta } = record;
      writeFileSync(path(record.move), Buffer.concat([Buffer.from(`${JSON.stringify(meta)}\n`), Buffer.from(bytes)]));
    },
    load: async (move) => {
      let raw;
      try {
        raw = readFileSync(path(move));
      } catch {
        return null;
      }
      const newline = raw.indexOf(10);
      try {
        return { ...JSON.parse(raw.subarray(0, newline).toString('utf8')), bytes: new Uint8Array(raw.subarray(newline + 1)) };
      } catch {
        return null; // an unreadable record is refused like a changed one
      }
    },
    clear: async () => {
      for (const name of readdirSync(dir)) if (name.endsWith('.ckpt')) rmSync(join(dir, name));
    },
    bytes: () => readdirSync(dir).filter((name) => name.endsWith('.ckpt'))
      .reduce((sum, name) => sum + readFileSync(join(dir, name)).length, 0),
  };
}

async function persisted() {
  const dir = option('--dir', null);
  if (!dir) throw new Error('persisted needs --dir');
  const inputs = moves.slice(0, Number(option('--inputs', String(moves.length))));
  const seeks = Number(option('--seeks', '40'));
  const store = fileStore(dir);
  const base = await captureBase(await start(), baseName);
  const replayer = new Replayer({ start, base, info: game.info, moves: inputs, save: store.save, load: store.load,
                                  clear: store.clear, known: store.known() });
  let started = performance.now();
  const { rebuilt } = await replayer.open();
  const openMs = performance.now() - started;
  let seed = inputs.length + 1;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const times = [];
  const frames = {};
  for (let i = 0; i < seeks; i++) {
    const move = Math.floor(random() * (inputs.length + 1));
    started = performance.now();
    const observed = await replayer.frameAt(move);
    times.push(performance.now() - started);
    const rows = Array.from({ length: 21 }, () => '');
    for (const row of observed.observation.world.rows) rows[row.y] = row.marks;
    frames[move] = rows;
  }
  started = performance.now();
  (await replayer.resume()).close();
  const resumeMs = performance.now() - started;
  replayer.close();
  process.stdout.write(`${JSON.stringify({
    inputs: inputs.length, rebuilt, refused: replayer.refusals, openMs: round(openMs),
    seekP50Ms: round(percentile(times, 0.5)), seekP95Ms: round(percentile(times, 0.95)), resumeMs: round(resumeMs),
    checkpoints: replayer.checkpoints.length,
    checkpointBytesPer10k: Math.round(store.bytes() * 10000 / Math.max(1, inputs.length)), frames,
  })}\n`);
}

const round = (value) => Math.round(value * 10) / 10;

await ({ check, bench, verify, persisted })[mode]();
// exit once stdout is flushed: a long JSON line into a pipe is written in parts
process.stdout.write('', () => process.exit(0));
