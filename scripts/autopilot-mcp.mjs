// autopilot-mcp.mjs - the reference autopilot (webmcp/autopilot) headless:
// it plays through the stdio MCP server (`python -m nethack_webmcp.mcp`)
// with the official MCP TypeScript SDK client, the same policy the page
// runs through WebMCP. Imported by bench-autopilot.mjs and the tests; run
// directly it plays one game and prints its summary as JSON:
//   node scripts/autopilot-mcp.mjs --seed 7 --max-calls 3000
// or, sealed (the eval harness), a game someone else created, over HTTP (the token from
// --token or $NNH_EVAL_CONTROL_TOKEN):
//   node scripts/autopilot-mcp.mjs --url URL --session ID --max-calls 300
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Autopilot } from '../webmcp/autopilot/autopilot.js';
import { answerHelp } from './usage.mjs';

// Games of a headless run are throwaway: keep their store in memory-backed
// /dev/shm when the machine has it, so the store's fsyncs cost nothing.
function scratchDir() {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

const CALL_TIMEOUT_MS = 10 * 60 * 1000;

/** @typedef {import('../webmcp/autopilot/autopilot.js').Summary & {seed: number, seconds: number, decisions: number,
 *             answersAccepted: number, notStanding: number, squares: number, firstTurn: number | null}} PlayedGame */

/** A tool client over one stdio MCP server process with its own state directory. */
export class McpToolClient {
  /** @param {{python?: string, stateDir?: string, clock?: number | string}} [options]
   *  clock: NNH_GAME_CLOCK for the server (a fixed game clock) */
  static async connect({ python = process.env.PYTHON || 'python3', stateDir, clock } = {}) {
    const own = stateDir ? null : mkdtempSync(join(scratchDir(), 'nnh-autopilot-'));
    const transport = new StdioClientTransport({
      // No spectator listener: parallel servers would contend for its one port.
      command: python, args: ['-m', 'nethack_webmcp.mcp', '--no-spectator'], stderr: 'inherit',
      env: { ...process.env, NNH_STATE_DIR: stateDir || /** @type {string} made when none was given */ (own), ...(clock === undefined ? {} : { NNH_GAME_CLOCK: String(clock) }) },
    });
    const client = new Client({ name: 'nethack-webmcp-autopilot', version: '1' });
    await client.connect(transport);
    return new McpToolClient(client, own);
  }

  constructor(client, ownDir) {
    this.client = client;
    this.ownDir = ownDir;
  }

  /** Call a tool; resolves with its frame (structuredContent), errors included. */
  async call(name, args) {
    // A long leg on a crowded machine can take over the SDK's 60 s default.
    const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    if (!result.structuredContent) throw new Error(`${name}: no structured frame in the result`);
    return result.structuredContent;
  }

  async close() {
    await this.client.close();
    if (this.ownDir) rmSync(this.ownDir, { recursive: true, force: true });
  }
}

/** Play one game per seed on one server; resolves with the summaries in order.
 * @param {number[]} seeds
 * @param {{maxCalls?: number, clock?: number | string, onGame?: (game: PlayedGame) => void}} [options]
 * @returns {Promise<PlayedGame[]>} */
export async function playSeeds(seeds, { maxCalls = 3000, clock, onGame = () => {} } = {}) {
  const client = await McpToolClient.connect({ clock });
  /** @type {PlayedGame[]} */
  const summaries = [];
  try {
    for (const seed of seeds) {
      const autopilot = new Autopilot(client);
      const started = Date.now();
      const summary = /** @type {PlayedGame} */ (await autopilot.playGame({ seed, maxCalls }));
      Object.assign(summary, { seconds: (Date.now() - started) / 1000, decisions: autopilot.state.decisions,
                               answersAccepted: autopilot.state.answersAccepted, notStanding: autopilot.state.notStanding, squares: autopilot.state.squares,
                               firstTurn: autopilot.state.firstTurn });
      // Close the engine: a finished or abandoned game keeps no driver alive.
      if (summary.gameId) await client.call('session', { action: 'close', sessionId: summary.gameId });
      summaries.push(summary);
      onGame(summary);
    }
  } finally {
    await client.close();
  }
  return summaries;
}

/** A tool client for one game a harness created: HTTP, its control token added to every call, and the
 *  autopilot's `session create` answered by resuming that game (the seed stays the harness's secret). */
export class GivenGameClient extends McpToolClient {
  static async connectHttp({ url, sessionId, token }) {
    const client = new Client({ name: 'nethack-webmcp-autopilot', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return new GivenGameClient(client, sessionId, token);
  }

  constructor(client, sessionId, token) {
    super(client, null);
    this.sessionId = sessionId;
    this.token = token;
  }

  async call(name, args) {
    if (name === 'session' && args.action === 'create') {
      const frame = await super.call('session', { action: 'resume', sessionId: this.sessionId, controlToken: this.token });
      // a loaded game's resume answers with its frame; the autopilot reads the scene as a new game's
      return frame.scene ? frame : super.call('observe', { sessionId: this.sessionId, controlToken: this.token });
    }
    return super.call(name, { ...args, controlToken: this.token });
  }
}

async function playGiven({ url, sessionId, token, maxCalls }) {
  const client = await GivenGameClient.connectHttp({ url, sessionId, token });
  try {
    const autopilot = new Autopilot(client);
    const summary = await autopilot.playGame({ maxCalls });
    return { ...summary, calls: autopilot.state.calls };
  } finally {
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  answerHelp(import.meta.url);
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, 'max-calls': { type: 'string', default: '3000' },
                                            url: { type: 'string' }, session: { type: 'string' }, token: { type: 'string' } } });
  const maxCalls = Number(values['max-calls']);
  const summary = values.url
    ? await playGiven({ url: values.url, sessionId: values.session, token: values.token || process.env.NNH_EVAL_CONTROL_TOKEN, maxCalls })
    : (await playSeeds([Number(values.seed)], { maxCalls }))[0];
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}
