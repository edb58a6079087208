// autopilot.js - the reference agent: one policy (beginner.js), played
// through the eleven tools by any client with `call(name, args) -> frame`.
// In the page the client is webmcp/client.js (document.modelContext); in
// Node it is scripts/autopilot-mcp.mjs (the official MCP SDK client over the
// stdio server). It reads each returned DecisionFrame, answers only the
// standing question (answers.js, after reading its prompt), and counts what
// it did so hosts and tests can judge the play.

import { RECOVERABLE_ERRORS } from '../vocabulary.js';
import { chooseAnswer } from './answers.js';
import { CarefulBeginner } from './beginner.js';

export const HARNESS = 'nethack-webmcp autopilot';
export const MODEL = 'rule-based (no model)';

const LOG_LINES = 12;
const OPERATION_POLL_MS = 250; // between observes of an operation still running

/** @typedef {import('./frame').Frame} Frame */
/** @typedef {{code: string, message: string}} Failure */
/** @typedef {{seed: number | undefined, gameId: string | null, role: string | null, deepest: number, turns: number,
 *             calls: number, endReason: string, death: string | null}} Summary */
/** @typedef {{running: boolean, gameId: string | null, role: string | null, games: number, calls: number,
 *             gameCalls: number, actions: number, decisions: number, answersAccepted: number, notStanding: number,
 *             handledErrors: number, unhandled: Failure | null, note: string, why: string, turn: number,
 *             firstTurn: number | null, deepest: number, squares: number, turnsPlayed: number,
 *             summary: Summary | null, log: string[], notesMade: number}} AutopilotState what hosts read (the page's
 *             panel, the benches); `log` is its last notes, across games; `notesMade` counts every note it made, so a
 *             host can tell which lines are new (the page files them under the game they were made for) */
/** @typedef {{call(name: string, args: Record<string, any>): Promise<Frame>}} Client */

/** A finished (or stopped) game as hosts report it.
 * @param {Frame | null} frame
 * @param {CarefulBeginner} policy
 * @param {AutopilotState} state
 * @param {number | undefined} seed
 * @param {string} reason
 * @returns {Summary} */
function summarize(frame, policy, state, seed, reason) {
  const scene = frame && frame.scene;
  const end = scene && scene.end;
  return {
    seed, gameId: state.gameId, role: state.role, deepest: policy.memory.deepest,
    turns: (frame && frame.basis && frame.basis.turn) || state.turn, calls: state.gameCalls,
    endReason: end ? (end.how || 'ended') : reason, death: end ? (end.death || end.how || null) : null,
  };
}

export class Autopilot {
  /** client: {call(name, args) -> frame}; onchange(state) after every call;
   *  options.keepPlaying starts a new game after each end (the page's option).
   * @param {Client} client
   * @param {(state: AutopilotState) => void} [onchange]
   * @param {{keepPlaying?: boolean}} [options] */
  constructor(client, onchange = () => {}, options = {}) {
    this.client = client;
    this.onchange = onchange;
    this.options = { keepPlaying: false, ...options };
    this.policy = new CarefulBeginner();
    /** @type {Record<string, any> | null} the latest plan-navigation result for the current level and view */
    this.plan = null;
    /** @type {Record<string, any> | null} the latest plan-wayOn result for the current view */
    this.wayOn = null;
    /** @type {Record<string, any> | null} what the last call meant to do (answers.js reads it) */
    this.intent = null;
    /** @type {AutopilotState} */
    this.state = { running: false, gameId: null, role: null, games: 0, calls: 0, gameCalls: 0, actions: 0,
                   decisions: 0, answersAccepted: 0, notStanding: 0, handledErrors: 0, unhandled: null, note: 'stopped', why: '',
                   turn: 0, firstTurn: null, deepest: 0, squares: 0, turnsPlayed: 0, summary: null, log: [],
                   notesMade: 0 };
    /** @type {Set<string>} */
    this.squares = new Set(); // every game's squares stood on (all games: progress over a session)
  }

  /** @param {string} text */
  note(text) {
    this.state.note = text;
    this.state.log.push(text);
    this.state.notesMade += 1;
    if (this.state.log.length > LOG_LINES) this.state.log.shift();
    this.onchange(this.state);
  }

  /** @param {Failure} error
   * @returns {null} */
  fail(error) {
    this.state.unhandled = error;
    this.state.running = false;
    this.note(`stopped on an error it cannot handle: ${error.code}: ${error.message}`);
    return null;
  }

  /** @param {string} name
   * @param {Record<string, any>} args
   * @returns {Promise<Frame>} */
  async call(name, args) {
    const frame = await this.client.call(name, args);
    this.state.calls += 1;
    this.state.gameCalls += 1;
    const outcome = frame.outcome;
    if (outcome && outcome.submission === 'accepted') this.state.actions += outcome.actionsTaken || 0;
    this.learn(frame);
    return frame;
  }

  /** What every frame teaches: position, depth, turn, kills.
   * @param {Frame} frame */
  learn(frame) {
    if (!frame.scene || !frame.basis) return;
    const self = frame.scene.self;
    this.policy.observe(frame);
    const where = `${this.state.gameId}:${frame.basis.levelId}`;
    this.squares.add(`${where}:${self.position.x},${self.position.y}`);
    for (const step of (frame.result && frame.result.steps) || []) this.squares.add(`${where}:${step.x},${step.y}`);
    this.state.squares = this.squares.size;
    if (this.state.firstTurn !== null) this.state.turnsPlayed += Math.max(0, frame.basis.turn - this.state.turn);
    this.state.turn = frame.basis.turn;
    if (this.state.firstTurn === null) this.state.firstTurn = frame.basis.turn;
    this.state.deepest = this.policy.memory.deepest;
    this.policy.memory.level(frame.basis.levelId).calls += 1;
  }

  /** @param {Record<string, any>} [params] the session create arguments (seed, role, …)
   * @returns {Promise<Frame | null>} */
  async newGame(params = {}) {
    this.policy = new CarefulBeginner();
    this.plan = null;
    this.wayOn = null;
    Object.assign(this.state, { gameId: null, gameCalls: 0, firstTurn: null, deepest: 0, summary: null });
    const frame = await this.call('session', { action: 'create', harness_name: HARNESS, model_name: MODEL, ...params });
    if (frame.error) return this.fail(frame.error);
    this.state.gameId = frame.basis.sessionId;
    this.state.role = frame.scene.self.role;
    this.state.games += 1;
    this.note(`new game: ${frame.scene.self.name} the ${frame.scene.self.role}`);
    return frame;
  }

  /** The page: play until stopped (a new game after each end only with keepPlaying). */
  start() {
    if (this.state.running) return;
    this.state.running = true;
    this.state.unhandled = null;
    this.note('starting');
    this.loop().catch((error) => this.fail({ code: 'exception', message: String((error && error.message) || error) }));
  }

  stop() {
    this.state.running = false;
    this.note('stopped');
  }

  async loop() {
    let frame = this.state.gameId ? await this.call('observe', { sessionId: this.state.gameId }) : null;
    if (!frame || frame.error || (frame.control && frame.control.gate === 'ended')) frame = await this.newGame();
    while (this.state.running && frame) {
      if (frame.control && frame.control.gate === 'ended' && !frame.error) {
        this.finish(frame);
        if (!this.options.keepPlaying) { this.state.running = false; this.onchange(this.state); return; }
        frame = await this.newGame();
        continue;
      }
      frame = await this.act(frame);
      this.onchange(this.state);
    }
  }

  /** Headless hosts: one game, at most maxCalls tool calls; resolves with its summary.
   * @param {{seed?: number, maxCalls?: number, params?: Record<string, any>}} [options]
   * @returns {Promise<Summary>} */
  async playGame({ seed, maxCalls = 3000, params = {} } = {}) {
    this.state.running = true;
    let frame = await this.newGame(seed === undefined ? params : { ...params, seed });
    while (frame && this.state.running) {
      if (frame.control && frame.control.gate === 'ended' && !frame.error) return this.finish(frame, seed);
      if (this.state.gameCalls >= maxCalls) break;
      frame = await this.act(frame);
    }
    this.state.running = false;
    const reason = this.state.unhandled ? `error ${this.state.unhandled.code}` : 'maxCalls';
    return summarize(frame, this.policy, this.state, seed, reason);
  }

  /** @param {Frame} frame
   * @param {number} [seed] */
  finish(frame, seed) {
    const summary = summarize(frame, this.policy, this.state, seed, 'ended');
    this.state.summary = summary;
    this.note(`game over on Dlvl ${summary.deepest} deepest, turn ${summary.turns}: ${summary.death || summary.endReason}`);
    return summary;
  }

  /** One step of play from the current frame; returns the next frame.
   * @param {Frame} frame
   * @returns {Promise<Frame | null>} */
  async act(frame) {
    // An operation that outlived the call's deadline (a long leg on a busy
    // machine) runs on: wait for it by its operationId, then play on.
    const running = (frame.outcome && frame.outcome.status === 'running' && frame.outcome.operationId)
      || (frame.error && frame.error.code === 'busy' && frame.error.operationId);
    if (running) return this.awaitOperation(running);
    if (frame.error && !(frame.outcome && frame.outcome.submission === 'accepted')) {
      if (!RECOVERABLE_ERRORS.has(frame.error.code)) return this.fail(frame.error); // re-reading the game recovers
      this.state.handledErrors += 1;
      if (frame.error.code === 'decisionMismatch' || frame.error.code === 'noDecision') this.state.notStanding += 1;
      this.note(`handled ${frame.error.code}: re-reading the game`);
      return this.call('observe', { sessionId: this.state.gameId });
    }
    if (!frame.scene) return this.call('observe', { sessionId: this.state.gameId }); // a query's frame
    const gate = frame.control && frame.control.gate;
    if (gate === 'decision') return this.answer(frame);
    if (gate !== 'ready') return this.fail({ code: gate || 'noGate', message: 'the game accepts no input' });
    return this.play(frame);
  }

  /** Observe the running operation until it is done; the frame then is current.
   * @param {string} operationId
   * @returns {Promise<Frame>} */
  async awaitOperation(operationId) {
    this.state.handledErrors += 1;
    this.note(`operation ${operationId} still running: waiting for it`);
    for (;;) {
      const frame = await this.call('observe', { sessionId: this.state.gameId, operationId });
      if (!(frame.result && frame.result.running === operationId)) return this.call('observe', { sessionId: this.state.gameId });
      await new Promise((resolve) => { setTimeout(resolve, OPERATION_POLL_MS); });
    }
  }

  /** @param {Frame} frame
   * @returns {Promise<Frame | null>} */
  async answer(frame) {
    // the gate is 'decision' (act): the frame carries the standing decision
    const decision = /** @type {import('./frame').Decision} */ (frame.decision);
    const vitals = frame.scene.self.vitals;
    const context = { intent: this.intent, mayEat: vitals.hunger !== 'satiated', race: frame.scene.self.race };
    const choice = chooseAnswer(decision, context);
    if (!choice) return this.fail({ code: 'unanswerable', message: `cannot answer a ${decision.kind} question` });
    this.note(`“${decision.prompt}” → ${choice.cancel ? 'cancel' : JSON.stringify(choice.value)} (${choice.why})`);
    if (!choice.cancel && choice.value === true && this.intent && this.intent.kind === 'pray') this.policy.prayed(frame.basis.turn);
    // Only the standing decision's own reply/cancel arguments are ever used.
    const args = choice.cancel ? decision.cancel.arguments : { ...decision.reply.arguments, value: choice.value };
    const next = await this.call('respond', args);
    // Counted once the reply is back, with its acceptance, so a host reading
    // the state while an answer is in flight sees the two counts agree.
    this.state.decisions += 1;
    // The engine accepts an answer only for the decision standing now: the
    // count of accepted answers is how hosts check none was answered blind.
    if (next.outcome && next.outcome.submission === 'accepted' && args.decisionId === decision.id) this.state.answersAccepted += 1;
    return next;
  }

  /** @param {Frame} frame
   * @returns {Promise<Frame | null>} */
  async play(frame) {
    let move = this.policy.next(frame, this.currentPlan(frame), this.currentWayOn(frame));
    for (let asked = 0; move.query && asked < 2; asked += 1) {
      // The rules need a plan first: `plan navigation`, or `plan wayOn` once the level looks stuck.
      const query = move.query === 'wayOn' ? 'wayOn' : 'navigation';
      const planned = await this.call('plan', { sessionId: frame.basis.sessionId, query });
      // A server without the wayOn query refuses it: the rules then fall back on their own reading.
      const answer = planned.result ? { ...planned.result, viewId: frame.basis.viewId } : { viewId: frame.basis.viewId, unavailable: true };
      if (query === 'wayOn') this.wayOn = answer; else this.plan = answer;
      move = this.policy.next(frame, this.currentPlan(frame), this.currentWayOn(frame));
    }
    if (move.query) return this.fail({ code: 'noPlan', message: 'plan gave nothing to act on' });
    this.intent = move.intent || null;
    this.state.why = move.why;
    this.note(move.why);
    const levelId = frame.basis.levelId;
    const next = await this.call(move.tool, move.args);
    if (move.leg) this.policy.afterLeg(next, move.leg, levelId, frame.basis.turn);
    if (move.leg === 'descend' && next.result && next.result.stopReason === 'atWayDown' && next.result.next
        && next.control.gate === 'ready') {
      this.note('on the way down: climb');
      return this.call(next.result.next.tool, next.result.next.arguments);
    }
    return next;
  }

  /** The latest plan, only while it still describes this view.
   * @param {Frame} frame */
  currentPlan(frame) {
    return this.plan && this.plan.viewId === frame.basis.viewId ? this.plan : null;
  }

  /** The latest `plan wayOn` answer, only while it still describes this view.
   * @param {Frame} frame */
  currentWayOn(frame) {
    return this.wayOn && this.wayOn.viewId === frame.basis.viewId ? this.wayOn : null;
  }
}
