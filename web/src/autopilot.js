// autopilot.js - the reference in-page agent. It plays only by calling the
// registered WebMCP tools through document.modelContext (webmcp/client.js),
// exactly as an outside agent would: it reads each returned DecisionFrame,
// fights what is hostile and adjacent, rests when hurt, eats when hungry,
// explores, walks to the way down and climbs, and answers every question
// deliberately by reading its prompt (never by taking a default blindly).
// Its games carry its harness label. Started and stopped from the home view.

export const HARNESS = 'nethack-webmcp autopilot';
export const MODEL = 'rule-based (no model)';

// Error codes a frame may carry that the autopilot knows how to handle: it
// re-reads the game (stale view/revision, a question that appeared) or
// picks another plan (no route, nothing there).
const RECOVERABLE = new Set(['staleView', 'staleRevision', 'decisionStanding', 'noDecision', 'decisionMismatch',
  'notFound', 'ambiguous', 'notAdjacent', 'noRoute', 'stepFailed', 'blocked']);
const HUNGRY = new Set(['hungry', 'weak', 'fainting', 'fainted']);

/** A decision's answer with its reason: {value} or {cancel: true}, plus why. */
export function chooseAnswer(decision, hero) {
  const prompt = (decision.prompt || '').toLowerCase();
  const cancel = (why) => (decision.cancel ? { cancel: true, why } : null);
  switch (decision.kind) {
    case 'confirmation': {
      if (/really attack/.test(prompt)) return { value: false, why: 'never attack a peaceful creature' };
      if (/pray/.test(prompt)) return { value: false, why: 'the autopilot never asked to pray' };
      if (/eat (it|one)/.test(prompt)) return { value: hero.hungry, why: hero.hungry ? 'hungry: eat it' : 'not hungry' };
      if (/no return|still climb|beware/.test(prompt)) return { value: false, why: 'do not leave the dungeon' };
      if (/possessions identified/.test(prompt)) return { value: true, why: 'see what we carried' };
      if (/(attributes|vanquished|genocided|conduct|overview)/.test(prompt)) return { value: false, why: 'end-of-game summary not needed' };
      return { value: false, why: 'unknown yes/no question: decline rather than risk it' };
    }
    case 'choice':
      return cancel('no menu choice is part of the plan')
        || { value: [decision.options[0].id], why: 'a choice is required: take the first option' };
    case 'direction':
      return cancel('no direction is part of the plan') || { value: 'self', why: 'a direction is required' };
    case 'text':
      return cancel('nothing to type') || { value: 'Elbereth', why: 'text is required' };
    case 'item': {
      const first = (decision.suggestedItems || [])[0];
      return cancel('no item is part of the plan')
        || (first ? { value: { itemId: first.itemId }, why: 'an item is required' } : { value: 'hands', why: 'bare hands' });
    }
    case 'position':
      return cancel('no position is part of the plan') || { value: 'finish', why: 'accept the cursor position' };
    default:
      return cancel('unknown question kind') || null;
  }
}

export class Autopilot {
  /** client: webmcp/client.js ToolClient; onchange(state) after every call. */
  constructor(client, onchange = () => {}) {
    this.client = client;
    this.onchange = onchange;
    this.state = { running: false, gameId: null, games: 0, calls: 0, actions: 0, decisions: 0,
                   handledErrors: 0, unhandled: null, note: 'stopped', log: [] };
    this.phase = 'explore';
    this.idleRounds = 0;
    this.doorTries = new Map();
    this.doorWalks = new Map();
  }

  start() {
    if (this.state.running) return;
    this.state.running = true;
    this.state.unhandled = null;
    this.note('starting');
    this.loop().catch((error) => this.fail({ code: 'exception', message: String(error && error.message || error) }));
  }

  stop() {
    this.state.running = false;
    this.note('stopped');
  }

  note(text) {
    this.state.note = text;
    this.state.log.push(text);
    if (this.state.log.length > 12) this.state.log.shift();
    this.onchange(this.state);
  }

  fail(error) {
    this.state.unhandled = error;
    this.state.running = false;
    this.note(`stopped on an error it cannot handle: ${error.code}: ${error.message}`);
  }

  async call(name, args) {
    const frame = await this.client.call(name, args);
    this.state.calls += 1;
    this.state.actions += (frame.outcome && frame.outcome.submission === 'accepted' && frame.outcome.actionsTaken) || 0;
    return frame;
  }

  async newGame() {
    this.phase = 'explore';
    this.idleRounds = 0;
    this.doorTries.clear();
    this.doorWalks.clear();
    const frame = await this.call('session', { action: 'create', harness_name: HARNESS, model_name: MODEL });
    if (frame.error) return this.fail(frame.error);
    this.state.gameId = frame.basis.sessionId;
    this.state.games += 1;
    this.note(`new game ${this.state.gameId}: ${frame.scene.self.name} the ${frame.scene.self.role}`);
    return frame;
  }

  async loop() {
    let frame = this.state.gameId ? await this.call('observe', { sessionId: this.state.gameId }) : null;
    if (!frame || frame.error || (frame.control && frame.control.gate === 'ended')) frame = await this.newGame();
    while (this.state.running && frame) {
      frame = await this.act(frame);
      this.onchange(this.state);
    }
  }

  /** One step of play from the current frame; returns the next frame. */
  async act(frame) {
    if (frame.error && !(frame.outcome && frame.outcome.submission === 'accepted')) {
      if (!RECOVERABLE.has(frame.error.code)) return this.fail(frame.error);
      this.state.handledErrors += 1;
      this.note(`handled ${frame.error.code}: re-reading the game`);
      return this.call('observe', { sessionId: this.state.gameId });
    }
    if (!frame.scene) return this.call('observe', { sessionId: this.state.gameId }); // a query's frame
    const gate = frame.control && frame.control.gate;
    if (gate === 'ended') {
      const end = frame.scene && frame.scene.end;
      this.note(`game over: ${end ? `${end.how}, score ${end.score}, depth ${end.depth}` : 'ended'}; starting another`);
      return this.newGame();
    }
    if (gate === 'decision') return this.answer(frame);
    if (gate !== 'ready') return this.fail({ code: gate || 'noGate', message: 'the game accepts no input' });
    return this.play(frame);
  }

  async answer(frame) {
    const decision = frame.decision;
    const hero = { hungry: HUNGRY.has(frame.scene.self.vitals.hunger) };
    const choice = chooseAnswer(decision, hero);
    if (!choice) return this.fail({ code: 'unanswerable', message: `cannot answer a ${decision.kind} question` });
    this.state.decisions += 1;
    const shown = choice.cancel ? 'cancel' : JSON.stringify(choice.value);
    this.note(`“${decision.prompt}” → ${shown} (${choice.why})`);
    if (choice.cancel) return this.call('respond', decision.cancel.arguments);
    return this.call('respond', { ...decision.reply.arguments, value: choice.value });
  }

  async play(frame) {
    const base = { sessionId: frame.basis.sessionId, viewId: frame.basis.viewId };
    const scene = frame.scene;
    const vitals = scene.self.vitals;
    const hostile = scene.entities.find((entity) => entity.attitude === 'hostile' && entity.direction);
    if (hostile) {
      this.note(`attacking the ${hostile.appearance || 'creature'} to the ${hostile.direction}`);
      return this.call('interact', { ...base, action: 'attack', target: { direction: hostile.direction } });
    }
    const nearThreat = scene.entities.some((entity) => entity.attitude === 'hostile' && entity.distance <= 4);
    if (vitals.hp * 3 < vitals.hpMax && !nearThreat) {
      this.note(`resting: HP ${vitals.hp}/${vitals.hpMax}`);
      return this.call('interact', { ...base, action: 'search', turns: 20 });
    }
    if (HUNGRY.has(vitals.hunger)) {
      const food = (scene.inventory || []).find((item) => item.category === 'food');
      if (food) {
        this.note(`eating ${food.label}`);
        return this.call('use', { ...base, action: 'eat', itemId: food.itemId || food.id });
      }
    }
    if (this.phase === 'doors') return this.doors(base, scene);
    if (this.phase === 'explore') return this.explore(base);
    return this.descend(base, scene);
  }

  /** Walk to the nearest closed door worth trying, then open it (or kick it when it stays shut). */
  async doors(base, scene) {
    const plan = await this.call('plan', { sessionId: base.sessionId, query: 'navigation' });
    const door = (plan.result && plan.result.doors || []).find((entry) => entry.state === 'closed'
      && entry.distance !== null && (this.doorTries.get(`${entry.x},${entry.y}`) || 0) < 5);
    if (!door) {
      this.phase = 'descend';
      this.note('no closed door left to try; looking for the way down');
      return this.descend(base, scene);
    }
    const hero = scene.self.position;
    const key = `${door.x},${door.y}`;
    if (hero.x !== door.approach.x || hero.y !== door.approach.y) {
      const walks = (this.doorWalks.get(key) || 0) + 1;
      this.doorWalks.set(key, walks);
      if (walks > 3) this.doorTries.set(key, 5); // cannot get there: give this door up
      this.note(`walking to the door at ${door.x},${door.y}`);
      return this.call('travel', { ...base, mode: 'to', to: door.approach, maxActions: 80 });
    }
    const tries = (this.doorTries.get(key) || 0) + 1;
    this.doorTries.set(key, tries);
    const action = tries <= 2 ? 'open' : 'kick';
    this.note(`${action === 'open' ? 'opening' : 'kicking'} the door to the ${door.direction}`);
    this.phase = 'explore';
    return this.call('interact', { ...base, action, target: { direction: door.direction } });
  }

  async explore(base) {
    const frame = await this.call('travel', { ...base, mode: 'explore', maxActions: 40 });
    const stop = frame.result && frame.result.stopReason;
    if ((stop === 'noFrontier' && frame.result.why === 'closedDoor') || stop === 'doorAttempt') {
      this.phase = 'doors';
      this.note(`explore: ${stop}; trying the doors`);
    } else if (stop === 'noFrontier' || stop === 'noRoute') {
      this.phase = 'descend';
      this.note(`explored what can be reached (${stop}${frame.result.why ? `: ${frame.result.why}` : ''}); looking for the way down`);
    } else if (stop) {
      this.note(`explore: ${stop}, ${frame.result.actionsTaken} moves`);
    }
    return frame;
  }

  async descend(base, scene) {
    const frame = await this.call('travel', { ...base, mode: 'descend', maxActions: 80 });
    const result = frame.result || {};
    if (result.stopReason === 'atWayDown' && frame.control.gate === 'ready') {
      this.note('on the way down: climbing');
      this.phase = 'explore';
      this.idleRounds = 0;
      this.doorTries.clear();
      this.doorWalks.clear();
      return this.call('travel', { ...result.next.arguments });
    }
    if (result.stopReason === 'noWayDown' || result.stopReason === 'noRoute') {
      this.idleRounds += 1;
      if (this.idleRounds % 3 === 0) this.phase = 'explore';
      this.note(`no known way down (${result.stopReason}); searching for hidden passages`);
      const position = scene.self.position;
      return this.call('interact', { sessionId: base.sessionId, viewId: frame.basis.viewId, action: 'search',
                                     turns: 10 + (position.x % 5) });
    }
    if (result.stopReason) this.note(`descend: ${result.stopReason}`);
    return frame;
  }
}
