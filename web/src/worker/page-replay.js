// page-replay.js - the page's replays: any move of a stored game, from
// checkpoints in IndexedDB (checkpoint-store.js), in engine instances of
// their own (never the live game's). The worker's 'replay' operation
// (worker/main.js) lands here; web/src/page-timeline-source.js is the page side.
//
//   open(gameId)          the game's journal, its checkpoints reused or rebuilt
//                         -> {moves, rebuilt, openMs, checkpoints, bytes, refused}
//   refresh(gameId)       a game that goes on: its new inputs appended and checkpointed
//   moves(gameId, a, b)   TimelineMove[] for moves a..b (web/src/timeline/source.js)
//   frame(gameId, k)      TimelineFrame at move k, verified (a refusal rejects: no frame)
//   resume(gameId)        an engine at the last move, verified, closed again -> {ms}
//   close(gameId)
//
// Only game text leaves: frames carry the map rows, messages and status,
// never the session metadata (a live game's seed stays in the worker).
import { captureBase } from './checkpoints.js';
import { Replayer } from './checkpoint-replay.js';
import { CheckpointStore } from './checkpoint-store.js';
import { prepareReplayBuild } from './engine-host.js';
import { ReplayEngine } from './replay-engine.js';
import { timelineMoves } from '../timeline/calls.js';

const ROWS = 21;
const RECEIPTS_ONE_BY_ONE = 32;
const WARM_INPUTS = 24; // the warm-up's canned inputs (warmUp)
const COMPASS = ['north', 'east', 'south', 'west', 'northeast', 'southeast', 'southwest', 'northwest']; // more unread calls than this: their receipts are read in one request

export class PageReplays {
  /** @param {{call: (op: string, argsJson: string) => Promise<string>}} journal the durable store (idb-store.js)
   *  @param {(() => any) | null} memory a navigation memory fold per checkpointing replay (Python's
   *  MemoryFold): each checkpoint then holds the navigation memory a session resumes from (session-resume.js) */
  constructor(journal, checkpoints = new CheckpointStore(), memory = null) {
    this.journal = journal;
    this.checkpoints = checkpoints;
    this.memory = memory;
    this.open_ = new Map(); // gameId -> {replayer, entries}
    this.base = null;
    this.baseCapture = null; // {build, capture: Promise<base>} while or once captured
    this.spare = null; // the fresh instance the base was read from, until a restore takes it
  }

  async read(op, ...args) {
    const answer = JSON.parse(await this.journal.call(op, JSON.stringify(args)));
    if (!answer.ok) throw new Error(`${op}: ${answer.message}`);
    return answer.value;
  }

  async engineParts() {
    const { factory, compiled, build } = await prepareReplayBuild();
    const start = () => ReplayEngine.start(factory, compiled);
    if (!this.baseCapture || this.baseCapture.build !== build) {
      // one capture however many ask at once (the boot's warm-up and a resume)
      const capture = (async () => {
        const first = await start();
        try {
          const base = await captureBase(first, build);
          // reading the base changes nothing: the instance is still fresh, kept for the next restore
          // (a session resume after a reload then starts no instance of its own)
          this.spare = first;
          return base;
        } catch (error) {
          first.close();
          throw error;
        }
      })();
      this.baseCapture = { build, capture };
      capture.catch(() => { if (this.baseCapture && this.baseCapture.capture === capture) this.baseCapture = null; });
    }
    this.base = await this.baseCapture.capture;
    return { start, fresh: () => this.fresh(start), base: this.base };
  }

  /** Run the replay build's common paths once on a throwaway instance (a canned game: creation, moves,
   *  searches, observe, full responses): the engine's functions are compiled on first use, and a
   *  session resume's tail would otherwise pay that on its first inputs. */
  async warmUp() {
    const { start } = await this.engineParts();
    const engine = await start();
    const sessionId = 'warm-up';
    let revision = 0;
    const send = async (method, params) => {
      const response = JSON.parse(await engine.request(JSON.stringify({ version: 1, method,
                                                                         params: { sessionId, ...params } })));
      if (Number.isInteger(response.revision)) revision = response.revision;
    };
    try {
      await send('session.create', { seed: 1, name: 'Warm', role: 'valkyrie', race: 'human', gender: 'female',
                                     alignment: 'neutral', createdAt: 1700000000, harness_name: '', model_name: '',
                                     wizard: false });
      for (let index = 0; index < WARM_INPUTS; index++) {
        const input = index % 2 ? { turns: 1 } : { direction: COMPASS[(index >> 1) % COMPASS.length] };
        await send(index % 2 ? 'game.search' : 'game.move', { requestId: `warm-${index}`, expectedRevision: revision,
                                                              ...input });
      }
      await send('session.observe', {});
    } finally {
      engine.close();
    }
  }

  /** A fresh instance of the replay build: the one kept after the base
   *  capture when there is one (it may be taken once), else a new one. */
  fresh(start) {
    const spare = this.spare;
    this.spare = null;
    return spare && !spare.closed && !spare.failure ? Promise.resolve(spare) : start();
  }

  async open(gameId) {
    this.close(gameId);
    const info = await this.read('getSession', gameId);
    if (!info) throw new Error(`no stored game ${gameId}`);
    const { inputs: entries, lastSeq } = settledInputs(await this.read('journal', gameId, 0), 0);
    const { start, base } = await this.engineParts();
    const store = this.checkpoints;
    const replayer = new Replayer({
      start, base, info, moves: entries,
      save: (record) => store.save(gameId, record),
      load: (move) => store.load(gameId, move),
      clear: () => store.clear(gameId),
      known: await store.moves(gameId),
      memory: this.memory,
    });
    const { rebuilt } = await replayer.open();
    this.open_.set(gameId, { replayer, entries, info, lastSeq });
    return this.describe(gameId, replayer, info, rebuilt);
  }

  /** A game that goes on: its new completed inputs are appended (and
   *  checkpointed); the same answer as open's. */
  async refresh(gameId) {
    const game = this.opened(gameId);
    const { inputs: more, lastSeq } = settledInputs(await this.read('journal', gameId, game.lastSeq), game.lastSeq);
    game.lastSeq = lastSeq;
    if (more.length) await game.replayer.append(more);
    const info = await this.read('getSession', gameId);
    return this.describe(gameId, game.replayer, info, false);
  }

  async describe(gameId, replayer, info, rebuilt) {
    return { moves: replayer.length, rebuilt, openMs: replayer.openMs, checkpoints: replayer.checkpoints.length,
             bytes: await this.checkpoints.bytes(gameId), refused: replayer.refusals,
             ended: Boolean(info && info.status === 'ended') };
  }

  opened(gameId) {
    const game = this.open_.get(gameId);
    if (!game) throw new Error(`the replay of ${gameId} is not open`);
    return game;
  }

  /** Moves from..to, each call labelled as the agent wrote it and carrying
   *  what it ended with, from its stored receipt (timeline/calls.js). */
  async moves(gameId, from, to) {
    const game = this.opened(gameId);
    const wanted = new Set();
    for (let move = Math.max(1, from); move <= Math.min(to, game.entries.length); move++) {
      wanted.add(game.entries[move - 1].operationId);
    }
    await this.readReceipts(gameId, game, [...wanted]);
    return timelineMoves(game.entries, from, to, (id) => game.receipts.get(id) ?? null);
  }

  /** The receipts of these calls not read yet, into game.receipts (a receipt
   *  is written once, so one read is enough; one not stored yet - its call is
   *  still running - is read again next time). */
  async readReceipts(gameId, game, operationIds) {
    game.receipts ??= new Map();
    const missing = operationIds.filter((id) => !game.receipts.has(id));
    if (missing.length > RECEIPTS_ONE_BY_ONE) {
      for (const receipt of await this.read('receipts', gameId)) game.receipts.set(receipt.requestId, receipt);
      return;
    }
    for (const id of missing) {
      const receipt = await this.read('getReceipt', gameId, id);
      if (receipt) game.receipts.set(id, receipt);
    }
  }

  async frame(gameId, move) {
    const { replayer } = this.opened(gameId);
    return frameOf(move, await replayer.frameAt(move));
  }

  async resume(gameId) {
    const { replayer } = this.opened(gameId);
    const started = performance.now();
    const engine = await replayer.resume();
    const ms = performance.now() - started;
    engine.close();
    return { ms };
  }

  close(gameId) {
    const game = this.open_.get(gameId);
    if (game) game.replayer.close();
    this.open_.delete(gameId);
  }
}

/** The completed inputs of journal entries after `afterSeq`, in order, up to
 *  the first entry still waiting for its receipt (a live game's reservation:
 *  read again next time) or a gap; and the last entry settled. Rejected and
 *  not-applied entries made no input and are skipped. */
function settledInputs(entries, afterSeq) {
  const inputs = [];
  let lastSeq = afterSeq;
  for (const entry of entries) {
    if (entry.seq !== lastSeq + 1 || entry.state === 'reserved') break;
    if (entry.state === 'completed' && entry.receipt) inputs.push(entry);
    lastSeq = entry.seq;
  }
  return { inputs, lastSeq };
}

/** The TimelineFrame (web/src/timeline/source.js) of a session.observe response. */
export function frameOf(move, observed) {
  const observation = observed.observation || {};
  const rows = Array.from({ length: ROWS }, () => '');
  for (const row of (observation.world && observation.world.rows) || []) {
    if (row.y >= 0 && row.y < ROWS) rows[row.y] = row.marks || '';
  }
  const vitals = observation.vitals || {};
  const messages = observation.recentMessages || [];
  const decision = observed.decision ? { kind: observed.decision.kind, prompt: observed.decision.prompt || '' } : null;
  return {
    move,
    exact: true,
    rows,
    message: messages.length ? messages[messages.length - 1] : '',
    status: [
      `St:${vitals.strength ?? '?'} Dx:${vitals.dexterity ?? '?'} Co:${vitals.constitution ?? '?'} `
        + `In:${vitals.intelligence ?? '?'} Wi:${vitals.wisdom ?? '?'} Ch:${vitals.charisma ?? '?'}`,
      `${observation.levelLabel || ''} $:${vitals.gold ?? 0} HP:${vitals.hp ?? '?'}(${vitals.hpMax ?? '?'}) `
        + `Pw:${vitals.energy ?? '?'}(${vitals.energyMax ?? '?'}) AC:${vitals.ac ?? '?'} Xp:${vitals.level ?? '?'} `
        + `T:${observation.turn ?? '?'}`,
    ],
    turn: observation.turn ?? null,
    depth: observation.depth ?? null,
    hp: vitals.hp ?? null,
    hpMax: vitals.hpMax ?? null,
    decision,
    ended: Boolean(observed.ended),
  };
}
