// beginner.js - the careful-beginner policy: from one DecisionFrame (gate
// ready), choose the next tool call and say why. The choice is the ordered
// rule table in rules/index.js; this file keeps only what a player would
// remember (last prayer, doors tried, squares searched, how far each level
// was explored, what died where) and learns it from the frames' structure:
// `creatureDied` events for kills, the scene's features and the dungeon's
// name for branches, the legs' stop reasons for what a leg found.

import { contextOf, isWayDown, HUNGRY } from './rules/context.js';
import { firstMove } from './rules/index.js';
import { prayerLikelySafe, PRAYER_GAP } from './rules/prayer.js';
import { spotWalked } from './rules/searching.js';

const HUNGRY_BUDGET = 20; // actions per leg (turns per rest) while hungry
const SAME_MOVE_REPEATS = 4; // the same call again at the same turn, this many times: wait instead (unlessStuck)

// Message matches no structure carries (held by structure.test.mjs's allow-list):
// Kicking a shop's door in makes its shopkeeper deadly. A closed shop says
// "Closed for inventory" in the dust before its door, often too smudged to
// read: a door with any writing before it is only ever opened. (Engravings are
// in no frame field.)
const DUST_WRITING = /written here in the dust|cl.sed for .nv.nt.ry/i;
// An angry god makes every later prayer dangerous: a pet killed ("You feel
// guilty"), or any of angrygods()'s words. (The god's anger is in no frame
// field; a Monk's "You feel guilty." after meat costs one alignment point only.)
// A were-creature's bite: lycanthropy is major trouble a prayer cures, and
// while it lasts its kind's corpses are cannibalism (Luck -2 to -5: a hero
// that misses everything). The player is told only "You feel feverish."
// (and "You feel purified." when cured): no frame field carries it.
const FEVERISH = /You feel feverish/;
const PURIFIED = /You feel purified/;
const ANGRY_GOD = /You feel guilty\.\.\.|You murderer|is displeased|Thou hast angered me|relearn thy lessons|Thou durst|You feel that .+ is (?:displeased|bummed)/;
// Minetown's watch, by the entity's appearance (a field, not a message).
const WATCH = /^watch(?:man| captain)$/;

/** Per-game memory. */
export class BeginnerMemory {
  constructor() {
    this.lastPrayer = null;
    this.elbereth = null; // {levelId, x, y, hp}: where it last wrote Elbereth and the HP then
    this.elberethTries = new Map(); // levelId -> engravings written there
    this.prayerUnsafe = false; // the god is angry (e.g. a pet died by our hand)
    this.lycanthrope = false; // bitten by a were-creature ("You feel feverish"), not yet cured
    this.levels = new Map();
    this.kills = []; // {name, turn, levelId, at}: every creatureDied seen
    this.pickedAt = new Set();
    this.wearTried = new Set(); // item ids: one try each (a cursed or unfitting piece stays off)
    this.armourChecks = new Set(); // "level:x,y" of [ walked to
    this.eatTried = new Set();
    this.foodChecks = new Map();
    this.dungeon = '';
    this.avoidDown = new Set(); // "level:x,y" of a staircase down into the Gnomish Mines
    // Set once the main dungeon's way down stayed hidden through a whole
    // round of searching: the Mines are then the only way deeper.
    this.minesAccepted = false;
    // "level:x,y" of a staircase down that leads to a level given up -> that level's id.
    this.leadsBack = new Map();
    this.climbingFrom = null; // the level id a climb up is leaving
    this.avoidUp = new Set(); // "level:x,y" of the staircase up into Sokoban (no way down there)
    this.levelId = null;
    this.depth = 0;
    this.deepest = 0;
    /** @type {RegExp | null} */ this.shotKind = null; // what the hero fires (rules/ranged.js): picked up and quivered again
    /** @type {Map<string, number> | undefined} */ this.wieldTried; // item id -> turn of its last wield/quiver try
    /** @type {Map<string, {count: number, since: number}> | undefined} */ this.shots; // "level:x,y" -> shots at that square lately
    /** @type {Map<string, number> | undefined} */ this.shotPickups; // "level:x,y" -> turn shots were last picked up there
    /** @type {Array<{levelId: string, x: number, y: number, dx: number, dy: number, turn: number}> | undefined} */ this.shotLines;
    /** @type {Set<string> | undefined} */ this.shotWalks; // "level:x,y" of a ) walked to for its missiles
    /** @type {string | null} */ this.lastWielded = null; // id of the item last seen wielded (rules/weapon.js)
    /** @type {number | undefined} */ this.wieldAgainAt;
    /** @type {{turn: number, x: number, y: number, levelId: string} | undefined} */ this.groundStep; // rules/ground.js's last step
    /** @type {number | undefined} */ this.castRefusedUntil;
    /** @type {number | undefined} */ this.mealRefusedUntil;
  }

  level(id) {
    if (!this.levels.has(id)) {
      this.levels.set(id, { calls: 0, explored: false, doorTries: new Map(), doorWalks: new Map(),
                            searched: new Map(), searches: 0, stalls: 0, holds: 0, descendBlockedUntil: 0, pushes: new Map(),
                            untouchableTries: 0, digs: 0, freshMisses: 0, trapSteps: 0, blocker: null, blockerWalks: 0, spotWalk: null, spotArrived: null, wayOnFollows: new Map(),
                            writingAt: new Set(), watched: false, arrival: null, leaving: false, trips: 0, upWalks: 0, rounds: 0, refugeMisses: 0 });
    }
    return this.levels.get(id);
  }
}

export class CarefulBeginner {
  constructor() {
    this.memory = new BeginnerMemory();
    /** @type {{key: string, turn: number, repeats: number} | null} the last call chosen (unlessStuck) */
    this.lastMove = null;
  }

  /** Learn from any frame: kills (for corpses), an angry god, the branches, the deepest level. */
  observe(frame) {
    const scene = frame.scene;
    if (!scene) return;
    const memory = this.memory;
    const dungeon = (scene.self.level && scene.self.level.dungeon) || '';
    const at = scene.self.position;
    if (/Gnomish Mines/.test(memory.dungeon) && !/Gnomish Mines/.test(dungeon)) {
      memory.avoidDown.add(`${frame.basis.levelId}:${at.x},${at.y}`); // up from the Mines: on the branch staircase
    }
    if (/Sokoban/.test(memory.dungeon) && !/Sokoban/.test(dungeon)) {
      memory.avoidUp.add(`${frame.basis.levelId}:${at.x},${at.y}`); // down from Sokoban: its staircase up is underfoot
    }
    memory.dungeon = dungeon;
    // The Elbereth written is the one underfoot: off the square it is forgotten (walking back finds it smudged).
    const mark = memory.elbereth;
    if (mark && (mark.levelId !== frame.basis.levelId || mark.x !== at.x || mark.y !== at.y)) memory.elbereth = null;
    const inHand = (scene.inventory || []).find((item) => (item.equipmentSlots || []).includes('weapon'));
    if (inHand) memory.lastWielded = inHand.id;
    const depth = (scene.self.level && scene.self.level.depth) || 0;
    if (frame.basis.levelId !== memory.levelId) this.arrived(frame, depth);
    memory.depth = depth;
    memory.deepest = Math.max(memory.deepest, depth);
    // The town watch arrests a hero seen breaking a door (rules/doors.js): a level where one was seen is watched.
    if ((scene.entities || []).some((entity) => WATCH.test(String(entity.appearance || '')))) memory.level(frame.basis.levelId).watched = true;
    for (const event of frame.events || []) {
      if (event.type === 'creatureDied' && Number.isInteger(event.x)) {
        memory.kills.push({ name: String(event.appearance || ''), turn: event.turn ?? frame.basis.turn,
                            levelId: event.levelId || frame.basis.levelId, at: { x: event.x, y: event.y } });
      }
      if (event.type !== 'heard') continue;
      const text = String(event.text || '');
      if (DUST_WRITING.test(text)) memory.level(frame.basis.levelId).writingAt.add(`${at.x},${at.y}`);
      if (ANGRY_GOD.test(text)) memory.prayerUnsafe = true;
      if (FEVERISH.test(text)) memory.lycanthrope = true;
      if (PURIFIED.test(text)) memory.lycanthrope = false;
    }
  }

  /** On a new level: where the hero came in; after a climb up from a level
   *  given up, the staircase underfoot leads back there and is avoided, and
   *  this level is looked at again for another way down. */
  arrived(frame, depth) {
    const levelId = frame.basis.levelId;
    const at = frame.scene.self.position;
    const level = this.memory.level(levelId);
    if (!level.arrival) level.arrival = { x: at.x, y: at.y };
    const from = this.memory.climbingFrom;
    this.memory.climbingFrom = null;
    this.memory.levelId = levelId;
    const onWayDown = (frame.scene.features || []).some((feature) => isWayDown(feature) && feature.x === at.x && feature.y === at.y);
    if (from && from !== levelId && depth < this.memory.depth && onWayDown) {
      this.memory.leadsBack.set(`${levelId}:${at.x},${at.y}`, from);
      Object.assign(level, { explored: false, searches: 0, leaving: false, upWalks: 0 });
    }
  }

  /** The prayer decision was answered yes at this turn. */
  prayed(turn) {
    this.memory.lastPrayer = turn;
  }

  prayerLikelySafe(turn, gap = PRAYER_GAP) {
    return prayerLikelySafe(this.memory, turn, gap);
  }

  /**
   * The next call for a ready frame: {tool, args, why, rule, intent?, leg?}.
   * `plan` is the latest plan-navigation result for this view (or null),
   * `wayOn` the latest plan-wayOn one (or null; {unavailable: true} when the
   * server has no such query); when the rules need a fresh one it returns
   * {query: true} (navigation) or {query: 'wayOn'}.
   * @param {any} frame
   * @param {any} plan
   * @param {Record<string, any> | null} [wayOn]
   */
  next(frame, plan, wayOn = null) {
    const turn = frame.basis.turn;
    // A cast that passed no turn was refused: no casting for a while.
    const cast = this.lastCast;
    if (cast && cast.turn === turn && ++cast.repeats >= 2) this.memory.castRefusedUntil = turn + 50;
    // So with a meal that passed no turn ("You can't do that while carrying so
    // much stuff"): the pack's food counts as out of reach for a while.
    const meal = this.lastMeal;
    if (meal && meal.turn === turn && ++meal.repeats >= 2) this.memory.mealRefusedUntil = turn + 50;
    const move = this.unlessStuck(firstMove(contextOf(this, frame, plan, wayOn)), frame);
    const action = move.args && move.args.action;
    this.lastCast = action === 'cast' ? (cast && cast.turn === turn ? cast : { turn, repeats: 0 }) : null;
    this.lastMeal = action === 'eat' && move.args.itemId ? (meal && meal.turn === turn ? meal : { turn, repeats: 0 }) : null;
    // Hungry with nothing to eat: short legs and rests, so Weak is met between
    // calls (and answered by a prayer or a meal) rather than fainted through.
    if (HUNGRY.includes(frame.scene.self.vitals.hunger) && move.args) {
      if (move.args.maxActions > HUNGRY_BUDGET) move.args.maxActions = HUNGRY_BUDGET;
      if (move.args.turns > HUNGRY_BUDGET) move.args.turns = HUNGRY_BUDGET;
    }
    return move;
  }

  /** The same call chosen again and again with no turn passing gets the same answer each time (the engine is
   *  deterministic): after a few, a short wait lets the world move on. Seed 11050: a peaceful hobbit stood on the
   *  Mines' stairs up, and the walk there (noRoute, targetOccupied, no turn passed) was chosen 2,590 times. */
  unlessStuck(move, frame) {
    if (!move.tool) return move;
    const key = `${move.tool}:${JSON.stringify({ ...move.args, viewId: null })}`; // a view id changes with any call
    const turn = frame.basis.turn;
    const last = this.lastMove;
    const repeats = last && last.key === key && last.turn === turn ? last.repeats + 1 : 0;
    this.lastMove = { key, turn, repeats };
    if (repeats < SAME_MOVE_REPEATS) return move;
    this.lastMove = null;
    return { tool: 'interact', args: { sessionId: frame.basis.sessionId, viewId: frame.basis.viewId, action: 'search', turns: 3 },
             rule: 'sameMoveNoTurn', why: `${move.why}: chosen ${repeats + 1} times with no turn passing, so wait a few turns first` };
  }

  /** After a leg: remember what its stop reason says about the level. */
  afterLeg(frame, leg, levelId, turnBefore) {
    const level = this.memory.level(levelId);
    const result = frame.result || {};
    if (leg === 'explore') {
      if (result.stopReason === 'noFrontier') {
        // A creature on the only way to a frontier: a hostile one is walked at (rules/combat.js) before the level counts as explored.
        if (result.why === 'creatureInTheWay' && result.blockedBy) {
          level.blocker = { at: result.blockedBy, turn: (frame.basis && frame.basis.turn) || turnBefore };
        } else level.explored = true;
      }
      // A leg whose steps passed no turn bumped into something it believed
      // open (a vault guard's corridor that vanished): as good as no step.
      const progressed = result.actionsTaken && !(frame.basis && frame.basis.turn === turnBefore);
      level.stalls = progressed ? 0 : level.stalls + 1;
      if (level.stalls >= 3) { level.explored = true; level.stalls = 0; }
    }
    if (leg === 'spotWalk') spotWalked(level, result.stopReason);
    if (leg === 'refuge') level.refugeMisses = result.stopReason === 'noRoute' ? level.refugeMisses + 1 : 0;
    if (leg === 'freshSearch') level.freshMisses = result.stopReason === 'noRoute' ? level.freshMisses + 1 : 0;
    if (leg === 'descend' && (result.stopReason === 'noRoute' || result.stopReason === 'noWayDown')) {
      level.descendBlockedUntil = level.calls + 20;
      if (result.why === 'closedDoor' || result.why === 'disconnected') level.explored = true;
    }
  }
}
