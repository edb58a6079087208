// bench-autopilot-trace.mjs - bench-autopilot's --trace DIR: the same games
// as playSeeds (autopilot-mcp.mjs), with one JSON line per tool call written
// to DIR/SEED.jsonl (the call, the rule's why, and what the frame after it
// shows: turn, depth, HP, XL, hunger, hostiles near, deaths seen, how far the
// nearest known stairs up and down are), so why a
// game ended shallow can be read without replaying it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Autopilot } from '../webmcp/autopilot/autopilot.js';
import { McpToolClient } from './autopilot-mcp.mjs';

/** One call's line: small enough to read 50 of them before a death.
 * @param {string} name @param {Record<string, any>} args @param {any} frame @param {string} why */
function line(name, args, frame, why) {
  const rest = Object.fromEntries(Object.entries(args).filter(([key]) => !['sessionId', 'viewId', 'decisionId'].includes(key)));
  const scene = frame.scene || {};
  const self = scene.self || {};
  const vitals = self.vitals || {};
  const hostiles = (scene.entities || []).filter((entity) => entity.attitude === 'hostile')
    .map((entity) => `${entity.appearance}@${entity.distance}`);
  const died = (frame.events || []).filter((event) => event.type === 'creatureDied').map((event) => event.appearance);
  const result = frame.result || {};
  const stairs = Object.fromEntries(['stairsUp', 'stairsDown'].map((kind) => [kind, Math.min(...(scene.features || [])
    .filter((/** @type {any} */ feature) => feature.kind === kind).map((/** @type {any} */ feature) => feature.distance))]));
  return JSON.stringify({
    call: name, args: rest, why, turn: frame.basis && frame.basis.turn, dlvl: self.level && self.level.depth,
    hp: `${vitals.hp}/${vitals.hpMax}`, xl: vitals.level, hunger: vitals.hunger, hostiles, died,
    up: Number.isFinite(stairs.stairsUp) ? stairs.stairsUp : null, down: Number.isFinite(stairs.stairsDown) ? stairs.stairsDown : null,
    stop: result.stopReason, error: frame.error && frame.error.code, gate: frame.control && frame.control.gate,
  });
}

/** playSeeds with a trace file per game.
 * @param {number[]} seeds
 * @param {{maxCalls: number, clock: number, dir: string, onGame: (game: any) => void}} options
 * @returns {Promise<import('./autopilot-mcp.mjs').PlayedGame[]>} */
export async function playSeedsTraced(seeds, { maxCalls, clock, dir, onGame }) {
  mkdirSync(dir, { recursive: true });
  const server = await McpToolClient.connect({ clock });
  /** @type {import('./autopilot-mcp.mjs').PlayedGame[]} */
  const summaries = [];
  try {
    for (const seed of seeds) {
      /** @type {string[]} */
      const lines = [];
      const traced = { why: () => '' };
      const client = { call: async (/** @type {string} */ name, /** @type {Record<string, any>} */ args) => {
        const frame = await server.call(name, args);
        lines.push(line(name, args, frame, traced.why()));
        return frame;
      } };
      const autopilot = new Autopilot(client);
      traced.why = () => autopilot.state.why;
      const summary = /** @type {import('./autopilot-mcp.mjs').PlayedGame} */ (await autopilot.playGame({ seed, maxCalls }));
      Object.assign(summary, { decisions: autopilot.state.decisions, answersAccepted: autopilot.state.answersAccepted,
                               notStanding: autopilot.state.notStanding, squares: autopilot.state.squares, firstTurn: autopilot.state.firstTurn });
      if (summary.gameId) await server.call('session', { action: 'close', sessionId: summary.gameId });
      writeFileSync(join(dir, `${seed}.jsonl`), `${lines.join('\n')}\n`);
      summaries.push(summary);
      onGame(summary);
    }
  } finally {
    await server.close();
  }
  return summaries;
}
