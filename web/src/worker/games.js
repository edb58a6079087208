// games.js - the worker's bookkeeping of its games, from the frames its
// tools return: the games list and records (IndexedDB) and the latest
// spectator snapshot of each game, written at most every FLUSH_MS per game
// and announced on the BroadcastChannel so every tab can redraw.
// Nothing here sends input: snapshots come from worker.spectate(), which
// reads the session's last known state. Only the game's owner writes: a
// tab that observes a game (another tab owns it) leaves its record and
// snapshot to the owner. A game this worker resumed, took over or imported
// is adopted: its record (or, for an import, one made from the stored
// game) now names this tab as the owner. These records list the games in
// play; a completed game's record is Python's GameRecord (durable-records.js).

import { CHANNEL, getGame, getSnapshot, putGame, putSnapshot } from '../store.js';

const FLUSH_MS = 120;
const EVENT_LIMIT = 40;
const ACTIVITY_LIMIT = 30;
const ARGUMENT_CHARS = 300;
const NOTE_LINES = 12;
const NOTE_CHARS = 300;
const channel = new BroadcastChannel(CHANNEL);

/** The character and label fields of a games record, from a game's
 *  concrete creation values (session metadata). Never the seed: these
 *  records list games in play, and a live game's seed is shown nowhere
 *  (a completed game's record, durable-records.js, publishes it). */
function characterOf(meta) {
  return {
    name: meta.name,
    role: meta.role,
    race: meta.race,
    gender: meta.gender,
    alignment: meta.alignment,
    harness: meta.harness_name || '',
    model: meta.model_name || '',
  };
}

/** A games record made from a stored SessionInfo (a game imported here). */
function recordFrom(info) {
  return {
    gameId: info.sessionId,
    ...characterOf(info.metadata || {}),
    startedAt: Math.round(info.startedAt * 1000),
    updatedAt: Math.round(info.updatedAt * 1000),
    lifecycle: info.status === 'ended' ? 'ended' : 'live',
    revision: null,
    turn: null,
    depth: info.lastDepth,
    deepest: info.deepestDepth,
  };
}

/** One line of the activity feed: a call that submitted (or tried to
 *  submit) input, with its arguments (trimmed JSON text), outcome, the
 *  reason a walk stopped, and the turn and revision it left the game at. */
function activityOf(toolName, argumentsText, frame) {
  const outcome = frame.outcome || {};
  let args = '';
  try {
    const parsed = JSON.parse(argumentsText || '{}');
    delete parsed.sessionId;
    delete parsed.viewId;
    args = JSON.stringify(parsed);
  } catch {
    args = String(argumentsText || '');
  }
  return {
    at: Date.now(),
    tool: toolName,
    arguments: args.length > ARGUMENT_CHARS ? `${args.slice(0, ARGUMENT_CHARS)}…` : args,
    submission: outcome.submission || null,
    status: outcome.status || null, // what happened: why a walk or a count stopped
    error: frame.error ? frame.error.code : null,
    turn: frame.basis.turn,
    revision: frame.basis.revision,
  };
}

export class GameBook {
  constructor({ spectate, stored, tabId }) {
    this.spectate = spectate; // (gameId) => snapshot object or null
    this.stored = stored;     // async (gameId) => SessionInfo or null
    this.tabId = tabId;
    this.games = new Map();   // gameId -> {record, events, inventory, timer, dirty}
    this.adopting = new Map(); // gameId -> promise of its entry
  }

  /** Take over the bookkeeping of a game this worker now owns (resumed,
   *  taken over): its existing record, or one made from the stored game. */
  adopt(gameId) {
    if (this.adopting.has(gameId)) return this.adopting.get(gameId);
    const adopting = (async () => {
      const live = this.spectate(gameId);
      if (!live || !live.owner) return null; // an observer writes nothing
      const [known, snapshot] = await Promise.all([getGame(gameId), getSnapshot(gameId)]);
      let record = known;
      if (!record) {
        const info = await this.stored(gameId);
        if (!info) return null;
        record = recordFrom(info);
      }
      record = { ...record, ownerTab: this.tabId, lifecycle: record.endedAt ? 'ended' : 'live' };
      delete record.closedAt;
      const entry = { record, events: (snapshot && snapshot.events) || [], activity: (snapshot && snapshot.activity) || [],
                      inventory: (snapshot && snapshot.lastInventory) || null, timer: null, urgent: true };
      if (!this.games.has(gameId)) this.games.set(gameId, entry);
      return this.games.get(gameId);
    })().finally(() => this.adopting.delete(gameId));
    this.adopting.set(gameId, adopting);
    return adopting;
  }

  /** A game imported into this browser: list it (it is stored, not loaded)
   *  at the revision and turn its verifying replay reached. */
  async imported(gameId, { revision = null, turn = null } = {}) {
    if (await getGame(gameId)) return;
    const info = await this.stored(gameId);
    if (!info) return;
    const record = { ...recordFrom(info), revision, turn, lifecycle: info.status === 'ended' ? 'ended' : 'closed',
                     imported: true };
    await putGame(record);
    channel.postMessage({ type: 'game', gameId, revision: record.revision });
  }

  /** The owning tab's autopilot says why it does what it does (its latest
   *  notes, newest last). Kept with the game and written into its snapshot,
   *  so every tab watching it shows them. Only a game this worker owns
   *  keeps them (an observer's book has no entry); they are the agent's
   *  words, not the game's, and stay plain text (pages use textContent). */
  noted(gameId, notes, playing) {
    const entry = this.games.get(gameId);
    if (!entry || !Array.isArray(notes)) return;
    const lines = notes.slice(-NOTE_LINES).map((line) => String(line).slice(0, NOTE_CHARS));
    entry.autopilot = { notes: lines, playing: Boolean(playing), at: Date.now() };
    this.schedule(gameId, entry);
  }

  /** Account for one tool call's frame; `argumentsText` is the call's
   *  arguments as JSON text (shown in the activity feed, never parsed as markup). */
  observe(toolName, frame, argumentsText = null) {
    const result = frame.result || {};
    if (toolName === 'session' && result.kind === 'session' && result.action === 'closed') {
      this.closed(result.sessionId);
      return;
    }
    const basis = frame.basis;
    if (!basis) return;
    let entry = this.games.get(basis.sessionId);
    if (toolName === 'session' && result.action === 'created') entry = this.created(basis.sessionId, result.session);
    if (!entry) {
      this.adopt(basis.sessionId).then((adopted) => { if (adopted) this.update(adopted, frame, toolName, argumentsText); },
        (error) => console.error('nethack: could not adopt game', basis.sessionId, error));
      return;
    }
    this.update(entry, frame, toolName, argumentsText);
  }

  created(gameId, session) {
    const now = Date.now();
    const record = {
      gameId,
      ...characterOf(session),
      startedAt: now,
      updatedAt: now,
      ownerTab: this.tabId,
      lifecycle: 'live',
      revision: 0,
      turn: null,
      depth: null,
      deepest: null,
    };
    const entry = { record, events: [], activity: [], inventory: null, timer: null, urgent: true };
    this.games.set(gameId, entry);
    return entry;
  }

  update(entry, frame, toolName = null, argumentsText = null) {
    const { record } = entry;
    const basis = frame.basis;
    const scene = frame.scene;
    const gate = frame.control && frame.control.gate;
    const diagnostics = frame.diagnostics && Object.keys(frame.diagnostics).length ? frame.diagnostics : null;
    const acted = Boolean(frame.outcome && frame.outcome.submission);
    // A call that changed nothing (an observe, a lookup, a second tab's
    // open) writes nothing: watching a game must not touch its stored state.
    const changed = entry.urgent || basis.revision !== record.revision || (gate && gate !== record.gate) || diagnostics
      || (frame.events && frame.events.length) || acted || (scene && scene.end && !record.endedAt);
    if (!changed) return;
    const before = `${record.lifecycle}/${record.depth}`;
    record.revision = basis.revision;
    record.turn = basis.turn;
    record.updatedAt = Date.now();
    const depth = scene && scene.self && scene.self.level ? scene.self.level.depth : null;
    if (typeof depth === 'number') {
      record.depth = depth;
      record.deepest = Math.max(record.deepest || 0, depth);
    }
    if (gate) record.gate = gate;
    if (scene && scene.end && !record.endedAt) this.ended(record, scene.end);
    for (const event of frame.events || []) {
      entry.events.push({ revision: basis.revision, turn: basis.turn, ...event });
    }
    if (entry.events.length > EVENT_LIMIT) entry.events.splice(0, entry.events.length - EVENT_LIMIT);
    if (acted && toolName) entry.activity.push(activityOf(toolName, argumentsText, frame));
    if (entry.activity.length > ACTIVITY_LIMIT) entry.activity.splice(0, entry.activity.length - ACTIVITY_LIMIT);
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
    // the end reason, and the record as a whole, is the Python layer's
    // GameRecord (session.make_record): pages read it from the durable store
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
    if (live && !live.owner) {
      this.games.delete(gameId); // taken over by another tab: its owner keeps the record now
      return;
    }
    const writes = [putGame(record)];
    const extra = { gameId, lifecycle: record.lifecycle, updatedAt: record.updatedAt, record };
    if (live) {
      writes.push(putSnapshot({ ...live, ...extra, events: entry.events.slice(), activity: entry.activity.slice(),
                                lastInventory: entry.inventory, autopilot: entry.autopilot || null }));
    } else {
      // The engine is retired (closed game): keep its last snapshot, relabelled.
      writes.push(getSnapshot(gameId).then((last) => last && putSnapshot({ ...last, ...extra })));
    }
    Promise.all(writes).then(
      () => channel.postMessage({ type: 'game', gameId, revision: record.revision }),
      (error) => console.error('nethack: could not store game', gameId, error));
  }
}
