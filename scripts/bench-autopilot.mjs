// bench-autopilot.mjs - how well the reference autopilot plays: one game
// per seed through the stdio MCP server, several servers in parallel.
// Prints a table (seed, role, deepest Dlvl, turns, calls, end) and, as its
// last line, one JSON object with the aggregate. Usage (via bench-autopilot):
//   --seeds 1-30 | 5,9,12   --max-calls 3000   --jobs 2   --clock EPOCH   [--trace DIR]
// --trace DIR writes each game's calls to DIR/SEED.jsonl (bench-autopilot-trace.mjs).
// Every game starts at the same date (--clock, default 2026-01-10 12:00
// UTC: no full or new moon, not night, not Friday 13th): NetHack reads the
// date, so without a pinned clock a seed plays differently from day to day.
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { playSeeds } from './autopilot-mcp.mjs';
import { playSeedsTraced } from './bench-autopilot-trace.mjs';
import { answerHelp } from './usage.mjs';

answerHelp(import.meta.url);

function seedList(text) {
  return text.split(',').flatMap((part) => {
    const range = /^(\d+)-(\d+)$/.exec(part.trim());
    if (!range) return [Number(part)];
    const [from, to] = [Number(range[1]), Number(range[2])];
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }).filter((seed) => Number.isInteger(seed) && seed >= 0);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const DEFAULT_CLOCK = 1768046400; // 2026-01-10 12:00:00 UTC

const { values } = parseArgs({ options: {
  seeds: { type: 'string', default: '1-30' }, 'max-calls': { type: 'string', default: '3000' },
  jobs: { type: 'string', default: String(Math.max(1, cpus().length)) },
  clock: { type: 'string', default: String(DEFAULT_CLOCK) }, trace: { type: 'string' } } });
const seeds = seedList(values.seeds);
const maxCalls = Number(values['max-calls']);
const jobs = Math.min(Number(values.jobs), seeds.length);
const clock = Number(values.clock);
if (!seeds.length || !(maxCalls > 0) || !(jobs > 0) || !Number.isInteger(clock) || clock < 0) {
  process.stderr.write('usage: bench-autopilot --seeds A-B[,C] --max-calls N [--jobs J] [--clock EPOCH]\n');
  process.exit(2);
}

const row = (cells) => cells.map((cell, i) => String(cell).padEnd([6, 12, 8, 7, 7, 40][i])).join(' ').trimEnd();
process.stdout.write(`${row(['seed', 'role', 'deepest', 'turns', 'calls', 'end'])}\n`);
const started = Date.now();
// Seeds are dealt round-robin to `jobs` servers; each plays its share in order.
const shares = Array.from({ length: jobs }, (_, job) => seeds.filter((_seed, i) => i % jobs === job));
const onGame = (/** @type {any} */ game) => {
  process.stdout.write(`${row([game.seed, game.role, game.deepest, game.turns, game.calls, game.death || game.endReason])}\n`);
};
const trace = values.trace;
const results = (await Promise.all(shares.map((share) => (trace
  ? playSeedsTraced(share, { maxCalls, clock, dir: trace, onGame })
  : playSeeds(share, { maxCalls, clock, onGame }))))).flat().sort((a, b) => a.seed - b.seed);
const seconds = (Date.now() - started) / 1000;

const deaths = {};
for (const game of results) if (game.death) deaths[game.death] = (deaths[game.death] || 0) + 1;
const calls = results.reduce((sum, game) => sum + game.calls, 0);
const deepest = results.map((game) => game.deepest);
process.stdout.write(`${JSON.stringify({
  games: results.length, seeds: values.seeds, maxCalls, jobs, clock,
  medianDeepest: median(deepest), meanDeepest: Number((deepest.reduce((a, b) => a + b, 0) / results.length).toFixed(2)),
  medianTurns: median(results.map((game) => game.turns)),
  died: results.filter((game) => game.death).length, deaths,
  starved: results.filter((game) => /starv/.test(game.death || '')).length,
  // Killed while fainted from hunger: a death hunger caused as surely as starving.
  faintedDeaths: results.filter((game) => /fainted from lack of food/.test(game.death || '')).length,
  notStanding: results.reduce((sum, game) => sum + game.notStanding, 0),
  calls, seconds: Number(seconds.toFixed(1)), callsPerSecond: Number((calls / seconds).toFixed(1)),
})}\n`);
