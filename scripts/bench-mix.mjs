#!/usr/bin/env node
// bench-mix.mjs - the fixed move/search mix, driven from Node, against
// either engine. Prints one JSON line.
//
//   node [--experimental-wasm-jspi] scripts/bench-mix.mjs [--ops 20000]
//        [--engine web/dist/engine] [--build jspi|asyncify] [--parse full|boundary] [--await]
//        [--clock wall|cpu] [--delta]
//   node scripts/bench-mix.mjs --native [--ops 20000] [--delta]
//
// WASM runs in-process: one compiled module, a fresh instance per game (as
// the browser worker does), of the build engine-builds.js picks (or
// --build). Native runs build/native/nhdriver, one process per game, over its
// NDJSON pipes.
// --parse: what the agent reads of each full response. `full` parses it
// (JSON.parse); `boundary` (the default) reads only what the mix needs - the
// revision and the standing decision, from the response's fixed key order -
// as an agent in the page does: there the consumer is Python, and
// JavaScript hands the text through unparsed.
// --await: the agent hands each request over through a promise, as the
// page's Python does (the engine suspends at every step); by default it
// answers synchronously, as an agent stepping NLE does.
// --delta: every step asks for a delta response ("delta":true): members
// unchanged since the last response come as null (docs/PROTOCOL.md). The
// agent reads the boundary either way; putting the members back is the
// host's work (py/nethack_webmcp/engine/deltas.py), outside this loop.
// The mix matches scripts/bench-engine: even steps move (compass order),
// odd steps search; a standing decision is cancelled; a finished game is
// replaced by a new one with the next seed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { detectBuild, startEngine } from '../web/src/worker/engine-builds.js';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const engineDir = resolve(arg('--engine', join(root, 'web', 'dist', 'engine')));
const totalOps = Number(arg('--ops', '20000'));
const WARM_UP_GAMES = 5;
const DIRECTIONS = ['north', 'east', 'south', 'west', 'northeast', 'southeast', 'southwest', 'northwest'];

const useNative = process.argv.includes('--native');
const build = arg('--build', detectBuild());
const parse = arg('--parse', 'boundary');
const awaited = process.argv.includes('--await');
const delta = process.argv.includes('--delta') ? ',"delta":true' : '';
// --clock cpu: time this process's CPU use instead of the wall clock - on a
// shared machine the nearest measure of the engine's own speed (V8's
// background threads count too, so it does not flatter the Node rows). The
// native pipes row stays on the wall clock: its engine is another process.
const clock = process.argv.includes('--native') ? 'wall' : arg('--clock', 'wall');
const now = clock === 'cpu'
  ? () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; }
  : () => performance.now();
const handOver = awaited ? (request) => Promise.resolve(request) : (request) => request;
process.setMaxListeners(0); // each engine instance registers its own process handlers
process.on('unhandledRejection', (/** @type {any} */ error) => { // the Asyncify build's exit(): seen by startEngine
  if (!(error && error.name === 'ExitStatus')) throw error;
});
let createNetHackEngine, compiled;
if (!useNative) {
  const buildDir = join(engineDir, build);
  globalThis.__dirname = buildDir;
  globalThis.require = createRequire(import.meta.url);
  ({ default: createNetHackEngine } = await import(pathToFileURL(join(buildDir, 'nethack.js')).href));
  compiled = await WebAssembly.compile(readFileSync(join(buildDir, 'nethack.wasm')));
}

// What the mix needs of a response: {revision, decision: {id} | null, ended, error}.
// A full response's last keys are always "decision", "ended", "end", and the
// top-level "revision" comes before any nested object; inside a JSON string a
// quote is escaped, so these patterns cannot match text. An error response is
// short and parsed whole.
function boundaryOf(text) {
  const decision = text.lastIndexOf(',"decision":');
  if (decision < 0) return JSON.parse(text);
  const at = text.indexOf('"revision":') + 11;
  const tail = JSON.parse(`{${text.slice(decision + 1)}`);
  return { revision: parseInt(text.slice(at, at + 12), 10), decision: tail.decision, ended: tail.ended };
}
const readResponse = parse === 'full' ? JSON.parse : boundaryOf;

// The request as text, built by template: the same JSON the objects would
// stringify to, without an object graph per step.
function nextRequest(state, response) {
  const head = `{"version":1,"method":"`;
  const params = `"params":{"sessionId":"bench","requestId":"r${state.step}","expectedRevision":${response.revision}${delta}`;
  if (response.decision) return `${head}decision.cancel",${params},"decisionId":${JSON.stringify(response.decision.id)}}}`;
  state.step += 1;
  if (state.step % 2 === 0) return `${head}game.move",${params},"direction":"${DIRECTIONS[(state.step / 2) % 8]}"}}`;
  return `${head}game.search",${params}}}`;
}
const createRequest = (seed) => `{"version":1,"method":"session.create","params":{"seed":${seed},"sessionId":"bench","createdAt":1700000000}}`;

// Plays one game; resolves with [ops, bytes, milliseconds] counted after creation.
let playGame = function (seed, budget) {
  return new Promise((resolveGame, rejectGame) => {
    const state = { step: 0 };
    let ops = 0, bytes = 0, started = 0, pending = null;
    const finish = () => { resolveGame([ops, bytes, now() - started]); return new Promise(() => {}); };
    startEngine(build, createNetHackEngine, compiled, {
      nnhOnResponse(text) { pending = text; },
      nnhNextRequest() {
        // requests are computed synchronously, so they are handed over as
        // values: the engine does not suspend for them (io_wasm.js)
        if (pending === null) return handOver(createRequest(seed));
        const response = readResponse(pending);
        if (started === 0) started = now();
        else { ops += 1; bytes += pending.length; }
        pending = null;
        if (response.error) throw new Error(JSON.stringify(response.error));
        if (response.ended || ops >= budget) return finish();
        return handOver(nextRequest(state, response));
      },
    }).catch(rejectGame);
  });
};

// The same game over the native driver's pipes.
function playNativeGame(seed, budget) {
  return new Promise((resolveGame) => {
    const driver = spawn(join(root, 'build', 'native', 'nhdriver'), [], { stdio: ['pipe', 'pipe', 'inherit'] });
    const state = { step: 0 };
    let ops = 0, bytes = 0, started = 0, buffered = '', done = false;
    const send = (request) => driver.stdin.write(`${request}\n`);
    driver.stdout.setEncoding('utf8');
    driver.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let i = buffered.indexOf('\n'); i >= 0 && !done; i = buffered.indexOf('\n')) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        const response = readResponse(line);
        if (started === 0) started = now();
        else { ops += 1; bytes += line.length; }
        if (response.error) throw new Error(JSON.stringify(response.error));
        if (response.ended || ops >= budget) {
          done = true;
          const elapsed = now() - started;
          driver.stdin.end();
          driver.on('close', () => resolveGame([ops, bytes, elapsed]));
          return;
        }
        send(nextRequest(state, response));
      }
    });
    send(createRequest(seed));
  });
}
if (useNative) playGame = playNativeGame;

let ops = 0, bytes = 0, ms = 0, games = 0;
// Warm-up games (seeds 1-5, 2,000 ops each) so the JIT has compiled the
// engine, as in a page that has been playing. V8 moves a WebAssembly
// function from its baseline compiler (Liftoff) to the optimizing one only
// after roughly 13 MB of that function's code has run (--wasm-tiering-budget):
// one 2,000-op game left much of NetHack on baseline code, and its tier-up
// compiles ran inside the timed window, ~11% of the JSPI rate
// (docs/BENCHMARKS.md, "Issue 27, engine speed"). bench_nle.py warms up the same.
for (let seed = 1; seed <= WARM_UP_GAMES; seed += 1) await playGame(seed, 2000);
for (let seed = 100; ops < totalOps; seed += 1) {
  const [gameOps, gameBytes, gameMs] = await playGame(seed, totalOps - ops);
  ops += gameOps; bytes += gameBytes; ms += gameMs; games += 1;
}
console.log(JSON.stringify({ target: `${useNative ? 'native' : `wasm ${build}${awaited ? ', awaited' : ''}`}${delta ? ', deltas' : ''}`, node: process.version, parse, clock, ops, games, seconds: ms / 1000, opsPerSecond: ops / (ms / 1000), meanResponseBytes: bytes / ops }));
process.exit(0);
