#!/usr/bin/env node
// bench-mix.mjs - the fixed move/search mix, driven from Node, against
// either engine. Prints one JSON line.
//
//   node scripts/bench-mix.mjs [--ops 20000] [--engine web/dist/engine]
//   node scripts/bench-mix.mjs --native [--ops 20000]
//
// WASM runs in-process: one compiled module, a fresh instance per game (as
// the browser worker does). Native runs build/native/nhdriver, one process
// per game, over its NDJSON pipes.
// The mix matches scripts/bench-engine: even steps move (compass order),
// odd steps search; a standing decision is cancelled; a finished game is
// replaced by a new one with the next seed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const engineDir = resolve(arg('--engine', join(root, 'web', 'dist', 'engine')));
const totalOps = Number(arg('--ops', '20000'));
const DIRECTIONS = ['north', 'east', 'south', 'west', 'northeast', 'southeast', 'southwest', 'northwest'];

const useNative = process.argv.includes('--native');
process.setMaxListeners(0); // each engine instance registers its own process handlers
let createNetHackEngine, compiled;
if (!useNative) {
  globalThis.__dirname = engineDir;
  globalThis.require = createRequire(import.meta.url);
  ({ default: createNetHackEngine } = await import(pathToFileURL(join(engineDir, 'nethack.js')).href));
  compiled = await WebAssembly.compile(readFileSync(join(engineDir, 'nethack.wasm')));
}
const encoder = new TextEncoder();

function nextRequest(state, response) {
  const params = { sessionId: 'bench', requestId: `r${state.step}`, expectedRevision: response.revision };
  if (response.decision) return { version: 1, method: 'decision.cancel', params: { ...params, decisionId: response.decision.id } };
  state.step += 1;
  if (state.step % 2 === 0) return { version: 1, method: 'game.move', params: { ...params, direction: DIRECTIONS[(state.step / 2) % 8] } };
  return { version: 1, method: 'game.search', params };
}

// Plays one game; resolves with [ops, bytes, milliseconds] counted after creation.
let playGame = function (seed, budget) {
  return new Promise((resolveGame) => {
    const state = { step: 0 };
    let ops = 0, bytes = 0, started = 0, pending = null;
    const finish = () => { resolveGame([ops, bytes, performance.now() - started]); return new Promise(() => {}); };
    createNetHackEngine({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled));
        return {};
      },
      nnhOnResponse(text) { pending = text; },
      async nnhNextRequest() {
        if (pending === null) {
          return encoder.encode(JSON.stringify({ version: 1, method: 'session.create', params: { seed, sessionId: 'bench', createdAt: 1700000000 } }));
        }
        const response = JSON.parse(pending);
        if (started === 0) started = performance.now();
        else { ops += 1; bytes += pending.length; }
        pending = null;
        if (response.error) throw new Error(JSON.stringify(response.error));
        if (response.ended || ops >= budget) return finish();
        return encoder.encode(JSON.stringify(nextRequest(state, response)));
      },
    });
  });
};

// The same game over the native driver's pipes.
function playNativeGame(seed, budget) {
  return new Promise((resolveGame) => {
    const driver = spawn(join(root, 'build', 'native', 'nhdriver'), [], { stdio: ['pipe', 'pipe', 'inherit'] });
    const state = { step: 0 };
    let ops = 0, bytes = 0, started = 0, buffered = '', done = false;
    const send = (request) => driver.stdin.write(`${JSON.stringify(request)}\n`);
    driver.stdout.setEncoding('utf8');
    driver.stdout.on('data', (chunk) => {
      buffered += chunk;
      for (let i = buffered.indexOf('\n'); i >= 0 && !done; i = buffered.indexOf('\n')) {
        const line = buffered.slice(0, i);
        buffered = buffered.slice(i + 1);
        const response = JSON.parse(line);
        if (started === 0) started = performance.now();
        else { ops += 1; bytes += line.length; }
        if (response.error) throw new Error(JSON.stringify(response.error));
        if (response.ended || ops >= budget) {
          done = true;
          const elapsed = performance.now() - started;
          driver.stdin.end();
          driver.on('close', () => resolveGame([ops, bytes, elapsed]));
          return;
        }
        send(nextRequest(state, response));
      }
    });
    send({ version: 1, method: 'session.create', params: { seed, sessionId: 'bench', createdAt: 1700000000 } });
  });
}
if (useNative) playGame = playNativeGame;

let ops = 0, bytes = 0, ms = 0, games = 0;
// one warm-up game so the JIT has compiled the engine, as in a live page
await playGame(1, 2000);
for (let seed = 100; ops < totalOps; seed += 1) {
  const [gameOps, gameBytes, gameMs] = await playGame(seed, totalOps - ops);
  ops += gameOps; bytes += gameBytes; ms += gameMs; games += 1;
}
console.log(JSON.stringify({ target: useNative ? 'native' : 'wasm-node', ops, games, seconds: ms / 1000, opsPerSecond: ops / (ms / 1000), meanResponseBytes: bytes / ops }));
process.exit(0);
