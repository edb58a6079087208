// games.js - the worker's bookkeeping of its games, from the frames its
// tools return: the games list and records (IndexedDB) and the latest
// spectator snapshot of each game, written at most every FLUSH_MS per game
// and announced on the BroadcastChannel so every tab can redraw.
// Nothing here sends input: snapshots come from worker.spectate(), which
// reads the session's last known state.

import { CHANNEL, getSnapshot, putGame, putSnapshot } from '../store.js';

const FLUSH_MS = 120;
const EVENT_LIMIT = 40;
const channel = new BroadcastChannel(CHANNEL);

/** NetHack's own `how` → the record's end reason (seed 002 §5). */
export function endReason(how) {
  if (how === 'ascended' || how === 'escaped' || how === 'quit') return how;
  if (how === 'panicked' || how === 'trickery') return 'failed';
  return 'died';
}

export class GameBook {
  constructor({ spectate, tabId }) {
    this.spectate = spectate; // (gameId) => snapshot object or null
    this.tabId = tabId;
    this.games = new Map();   // gameId -> {record, events, inventory, timer, dirty}
  }

  /** Account for one tool call's frame. */
  observe(toolName, frame) {
    const result = frame.result || {};
    if (toolName === 'session' && result.kind === 'session' && result.action === 'closed') {
      this.closed(result.sessionId);
      return;
    }
    const basis = frame.basis;
    if (!basis) return;
    let entry = this.games.get(basis.sessionId);
    if (toolName === 'session' && result.action === 'created') entry = this.created(basis.sessionId, result.session);
    if (!entry) return;
    this.update(entry, frame);
  }

  created(gameId, session) {
    const now = Date.now();
    const record = {
      gameId,
      name: session.name,
      role: session.role,
      race: session.race,
      gender: session.gender,
      alignment: session.alignment,
      seed: session.seed,
      harness: session.harness_name || '',
      model: session.model_name || '',
      startedAt: now,
      updatedAt: now,
      ownerTab: this.tabId,
      lifecycle: 'live',
      revision: 0,
      turn: null,
      depth: null,
      deepest: null,
    };
    const entry = { record, events: [], inventory: null, timer: null, urgent: true };
    this.games.set(gameId, entry);
    return entry;
  }

  update(entry, frame) {
    const { record } = entry;
    const basis = frame.basis;
    const scene = frame.scene;
    const before = `${record.lifecycle}/${record.depth}`;
    record.revision = basis.revision;
    record.turn = basis.turn;
    record.updatedAt = Date.now();
    const depth = scene && scene.self && scene.self.level ? scene.self.level.depth : null;
    if (typeof depth === 'number') {
      record.depth = depth;
      record.deepest = Math.max(record.deepest || 0, depth);
    }
    const gate = frame.control && frame.control.gate;
    if (gate === 'recoveryRequired' && record.lifecycle === 'live') record.lifecycle = 'failed';
    if (scene && scene.end && !record.endedAt) this.ended(record, scene.end);
    for (const event of frame.events || []) {
      entry.events.push({ revision: basis.revision, turn: basis.turn, ...event });
    }
    if (entry.events.length > EVENT_LIMIT) entry.events.splice(0, entry.events.length - EVENT_LIMIT);
    if (scene && scene.perception && scene.perception.inventory === 'current' && scene.inventory) {
      entry.inventory = { items: scene.inventory, revision: basis.revision, turn: basis.turn };
    }
    if (`${record.lifecycle}/${record.depth}` !== before) entry.urgent = true;
    this.schedule(basis.sessionId, entry);
  }

  ended(record, end) {
    record.lifecycle = 'ended';
    record.endedAt = Date.now();
    record.how = end.how;
    record.endReason = endReason(end.how);
    record.score = end.score;
    record.turn = end.turn;
    record.death = end.death || '';
    if (typeof end.depth === 'number') record.depth = end.depth;
    if (typeof end.deepest === 'number') record.deepest = Math.max(record.deepest || 0, end.deepest);
  }

  closed(gameId) {
    const entry = this.games.get(gameId);
    if (!entry) return;
    if (entry.record.lifecycle === 'live') entry.record.lifecycle = 'closed';
    entry.record.closedAt = Date.now();
    entry.urgent = true;
    this.flush(gameId, entry);
  }

  schedule(gameId, entry) {
    if (entry.urgent) {
      this.flush(gameId, entry);
      return;
    }
    if (entry.timer === null) entry.timer = setTimeout(() => this.flush(gameId, entry), FLUSH_MS);
  }

  flush(gameId, entry) {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = null;
    entry.urgent = false;
    const record = { ...entry.record };
    const live = this.spectate(gameId);
    const writes = [putGame(record)];
    const extra = { gameId, lifecycle: record.lifecycle, updatedAt: record.updatedAt, record };
    if (live) {
      writes.push(putSnapshot({ ...live, ...extra, events: entry.events.slice(), lastInventory: entry.inventory }));
    } else {
      // The engine is retired (closed game): keep its last snapshot, relabelled.
      writes.push(getSnapshot(gameId).then((last) => last && putSnapshot({ ...last, ...extra })));
    }
    Promise.all(writes).then(
      () => channel.postMessage({ type: 'game', gameId, revision: record.revision }),
      (error) => console.error('nethack: could not store game', gameId, error));
  }
}
