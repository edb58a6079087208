// beginner.js - the careful-beginner policy: from one DecisionFrame (gate
// ready), choose the next tool call and say why. It keeps only what a
// player would remember (last prayer, doors tried, squares searched, how
// far each level was explored) and reads everything else from the frame.
//
// Priorities, first match wins:
//   1. real trouble (HP at 1/7 or <= 5, Weak with no food in the pack, a
//      deadly condition) and a prayer is likely safe: pray;
//   2. low HP with a threat near and no safe prayer: write Elbereth in the
//      dust and rest on it (fight only what ignores it);
//   (a Healer below half HP first casts healing on itself;)
//   3. a hostile adjacent: a Wizard casts force bolt while it has the power,
//      else fight it, unless it is one a beginner must never touch; with
//      low HP and a threat close but not adjacent: step away;
//   4. hungry: eat pack food; not satiated: eat a fresh safe corpse (underfoot,
//      or walk onto one just killed nearby);
//   5. hurt or impaired with no threat near: rest (search, which also finds);
//   6. food underfoot: pick it up; plain armour for an empty slot: pick it
//      up (walking to a [ close by) and wear it;
//   7. the level: descend when a way down is known, the level is explored
//      enough and HP is at least 70% (else rest first), else explore; when nothing is left to explore, open or kick
//      closed doors, push boulders that may block a way, search dead ends
//      and the plan's wall spots (each with a cap), then walls not searched
//      yet, facing the most unknown (searching.js), then search around;
//      after a whole round of that with no way down, go up and look for
//      another way down (the Mines' branch on Dlvl 2-4), then come back.

import { armourPattern, armourToWear, wearableSlot, wornSlots } from './armour.js';
import { nextPush } from './boulders.js';
import { missileAt } from './missiles.js';
import { freshSearchSpot } from './searching.js';
import { FOOD_TO_PICK, NEVER_ROTS, corpseName, corpseWelcome, packFood, safeCorpse } from './food.js';

// (An acid blob's passive splash is a few HP at most: fought, or it can wall a hero in a doorway.)
const NEVER_MELEE = /floating eye|cockatrice|chickatrice|gas spore|mold|jelly/;
const DEADLY_CONDITIONS = ['stone', 'slime', 'strangled', 'foodPoisoning', 'terminallyIll'];
const IMPAIRED = ['stunned', 'confused', 'hallucinating', 'blind'];
const HUNGRY = ['hungry', 'weak', 'fainting', 'fainted'];
const WEAK = ['weak', 'fainting', 'fainted'];
// NetHack's prayer timeout (pray.c) starts at 300, drops by one a turn, and
// a prayer in major trouble is answered once it is at most 200: the first
// is safe from turn ~100. A successful prayer resets it to rnz(350): half
// the draws are under 350, but about 6% exceed 1200, so a beginner leaves
// 1000 turns between prayers (the timeout is then at most 200 unless the
// draw was over 1200). A prayer answered too soon makes the god angry, and
// every later one fails: observe() then forbids praying.
// A prayer that fixes hunger leaves ~900 turns of food to Fainting and
// ~1300 to starving, so a 1000-turn gap still saves a hero with no food.
// But that prayer's meal (900 nutrition) lasts only ~850 turns to the next
// Weak: a hero with no food who waits the full 1000 faints and is eaten.
// Weak with no food, it prays after 800 (timeout still over 200 about 1 in
// 10): a small risk against a near-certain death.
// Fainting with no food, waiting longer means helpless spells among monsters
// and death by starvation ~200 turns on: a prayer then is the only chance,
// however recent the last one (it is answered if the timeout, drawn at the
// last prayer, has run down to 200; a prayer too soon angers the god, which
// observe() notes, so this is tried once).
const FIRST_PRAYER_TURN = 150;
const PRAYER_GAP = 1000;
const STARVING_PRAYER_GAP = 800;
const FAINTING_PRAYER_GAP = 100;
// How long one level may take before a known way down wins over exploring:
// a beginner does not clear the first levels (depth is what a run measures,
// and a long stay only spends food).
const LEVEL_CALLS_BEFORE_DESCENT = 30;
const EAT_CLEARANCE = 6; // no hostile this close while eating
const HUNGRY_BUDGET = 20; // actions per leg (turns per rest) while hungry
const FORCE_BOLT_ENERGY = 5;
const HEALING_ENERGY = 5;
const SHOP_GOODS = /for sale|unpaid|no charge/; // a shopkeeper's, not a beginner's
// Elbereth scares most early monsters, but not @ (humans, elves), minotaurs or shopkeepers.
const IGNORES_ELBERETH = /^@$|minotaur|shopkeeper|guard|priest/;
const ELBERETH_TRIES = 3; // per level: a typo in the dust (1 in 25 a letter) leaves it powerless
const ENGRAVABLE = ['floor', 'corridor', 'doorway', undefined];
const UNTOUCHABLE_TRIES = 30; // per level: throws, Elbereths and waits at a creature in the way that must not be touched
const DIGS_PER_LEVEL = 6; // applications of a pick-axe downward (an interrupted dig leaves a pit)
const SPORE_BLAST = 24; // a gas spore's explosion: 4d6
const DOOR_TRIES = 8; // opens (a stuck door resists a few), or kicks once it is known locked
const SPOT_SEARCH = 15; // turns per search call
const SPOT_SEARCHES = 2; // search calls per wall spot (each search finds a hidden square 1 time in 7)
const DEAD_END_SEARCHES = 3; // per dead end: where hidden corridors most often are
const LEVEL_SEARCH_CAP = 40; // search calls per level once everything else is tried
const FRESH_MISSES = 3; // walks in a row to unsearched walls that found no route: shut in
const TRAP_STEPS = 3; // per level: steps onto a known trap to get out
const CORPSE_FRESH_TURNS = 25; // eat.c: a corpse may be rotten once (age / 10) > 3, i.e. from age 40
// A level whose way down stayed hidden through a whole round of searching is
// left upward, to look for another way down (dungeon.def: the Gnomish Mines
// branch from Dlvl 2-4). Levels deeper than that, and Mines levels, are only
// explored on the way up; on those in the branch range its dead ends and
// search spots are searched too. Nothing there: back down to search again.
const BRANCH_DEEPEST = 4;
const BRANCH_SHALLOWEST = 2;
const ROUNDS_BEFORE_TRIP = 1; // rounds of searching on a level before it is given up
const PRAYER_RESERVE_WAIT = 300; // turns it waits, at most, for a prayer in reserve before that way down
const TRIPS_UP = 2; // per level given up: then it searches on there for good
const REFUGE_DISTANCE = 20; // in the Mines, hurt: stairs up this close are the way out
const UP_WALKS = 8; // walks to the staircase up (legs stop for every new creature) before giving the climb up

function isWayDown(feature) {
  return feature.kind === 'stairsDown' || feature.kind === 'ladderDown';
}

/** The compass direction of a step by (dx, dy), each -1, 0 or 1 (or its sign). */
function directionOf(dx, dy) {
  return `${dy < 0 ? 'north' : dy > 0 ? 'south' : ''}${dx > 0 ? 'east' : dx < 0 ? 'west' : ''}`;
}

/** The distance from a to b when they share a row, column or diagonal, else 0. */
function inLine(a, b) {
  const dx = Math.abs(a.x - b.x);
  const dy = Math.abs(a.y - b.y);
  return dx === 0 || dy === 0 || dx === dy ? Math.max(dx, dy) : 0;
}

function distance(a, b) {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

/** Per-game memory. */
export class BeginnerMemory {
  constructor() {
    this.lastPrayer = null;
    this.elbereth = null; // {levelId, x, y, hp}: where it last wrote Elbereth and the HP then
    this.elberethTries = new Map(); // levelId -> engravings written there
    this.prayerUnsafe = false; // the god is angry (e.g. a pet died by our hand)
    this.levels = new Map();
    this.kills = []; // {name, turn, x, y}
    this.pickedAt = new Set();
    this.wearTried = new Set(); // item ids: one try each (a cursed or unfitting piece stays off)
    this.armourChecks = new Set(); // "level:x,y" of [ walked to
    this.eatTried = new Set();
    this.foodChecks = new Map();
    this.dungeon = '';
    this.avoidDown = new Set(); // "level:x,y" of a staircase down into the Gnomish Mines
    // Set once the main dungeon's way down stayed hidden through a whole
    // round of searching: the Mines are then the only way deeper, and
    // searching on for thousands of turns only starves the hero.
    this.minesAccepted = false;
    // "level:x,y" of a staircase down that leads to a level given up (no way
    // on found there) -> that level's id: avoided until the way up is done.
    this.leadsBack = new Map();
    this.climbingFrom = null; // the level id a climb up is leaving
    this.avoidUp = new Set(); // "level:x,y" of the staircase up into Sokoban (no way down there)
    this.levelId = null;
    this.depth = 0;
    this.deepest = 0;
    // set by CarefulBeginner.next once a cast or a meal passed no turn twice
    /** @type {number | undefined} */ this.castRefusedUntil;
    /** @type {number | undefined} */ this.mealRefusedUntil;
  }

  level(id) {
    if (!this.levels.has(id)) {
      this.levels.set(id, { calls: 0, explored: false, doorTries: new Map(), doorWalks: new Map(),
                            searched: new Map(), searches: 0, stalls: 0, descendBlockedUntil: 0, pushes: new Map(),
                            untouchableTries: 0, digs: 0, freshMisses: 0, trapSteps: 0,
                            writingAt: new Set(), arrival: null, leaving: false, trips: 0, upWalks: 0, rounds: 0, refugeMisses: 0 });
    }
    return this.levels.get(id);
  }
}

export class CarefulBeginner {
  constructor() {
    this.memory = new BeginnerMemory();
  }

  /** Learn from any frame: kills (for corpses), an angry god, prayer answers, the deepest level. */
  observe(frame) {
    const scene = frame.scene;
    if (!scene) return;
    const turn = frame.basis && frame.basis.turn;
    const dungeon = (scene.self.level && scene.self.level.dungeon) || '';
    if (/Gnomish Mines/.test(this.memory.dungeon) && !/Gnomish Mines/.test(dungeon)) {
      // Up from the Mines: the hero stands on the branch staircase.
      const at = scene.self.position;
      this.memory.avoidDown.add(`${frame.basis.levelId}:${at.x},${at.y}`);
    }
    if (/Sokoban/.test(this.memory.dungeon) && !/Sokoban/.test(dungeon)) {
      // Down from Sokoban (entered by mistake): the staircase up under the hero leads there.
      const at = scene.self.position;
      this.memory.avoidUp.add(`${frame.basis.levelId}:${at.x},${at.y}`);
    }
    this.memory.dungeon = dungeon;
    const depth = (scene.self.level && scene.self.level.depth) || 0;
    if (frame.basis.levelId !== this.memory.levelId) this.arrived(frame, depth);
    this.memory.depth = depth;
    this.memory.deepest = Math.max(this.memory.deepest, depth);
    for (const event of frame.events || []) {
      const text = String(event.text || '');
      const killed = /You (?:kill|destroy) (?:the |an? )?(.+?)!/.exec(text);
      if (killed) {
        // The attack was chosen on this turn's frame or the last one (a fast hero
        // attacks twice in one turn, so the kill may come on the same turn).
        const recent = this.lastAttack && turn - this.lastAttack.turn <= 1 && turn >= this.lastAttack.turn;
        const at = recent && this.lastAttack ? this.lastAttack.at : null;
        this.memory.kills.push({ name: killed[1], turn, levelId: frame.basis.levelId, at });
      }
      // Kicking a shop's door in makes its shopkeeper deadly. A closed shop says
      // "Closed for inventory" in the dust before its door, often too smudged to
      // read: a door with any writing before it is only ever opened.
      if (/written here in the dust|cl.sed for .nv.nt.ry/i.test(text)) {
        const at = scene.self.position;
        this.memory.level(frame.basis.levelId).writingAt.add(`${at.x},${at.y}`);
      }
      // An angry god makes every later prayer dangerous: a pet killed ("You feel
      // guilty"), or any of angrygods()'s words ("is displeased" included).
      // (A Monk's "You feel guilty." after meat costs one alignment point only.)
      if (/You feel guilty\.\.\.|You murderer|is displeased|Thou hast angered me|relearn thy lessons|Thou durst|You feel that .+ is (?:displeased|bummed)/.test(text)) {
        this.memory.prayerUnsafe = true;
      }
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
      level.explored = false;
      level.searches = 0;
      level.leaving = false;
      level.upWalks = 0;
    }
  }

  /** True when the way down at `feature` is not to be taken now: it leads to a
   *  level given up, or into the Gnomish Mines before they are accepted. */
  avoidedDown(levelId, feature) {
    const key = `${levelId}:${feature.x},${feature.y}`;
    return this.memory.leadsBack.has(key) || (!this.memory.minesAccepted && this.memory.avoidDown.has(key));
  }

  /** This level is on the way up from a level given up (its way down leads back there). */
  onTripUp(levelId) {
    return [...this.memory.leadsBack.keys()].some((key) => key.startsWith(`${levelId}:`));
  }

  /** The prayer decision was answered yes at this turn. */
  prayed(turn) {
    this.memory.lastPrayer = turn;
  }

  prayerLikelySafe(turn, gap = PRAYER_GAP) {
    const last = this.memory.lastPrayer;
    return !this.memory.prayerUnsafe && turn >= FIRST_PRAYER_TURN && (last === null || turn - last >= gap);
  }

  /**
   * The next call for a ready frame: {tool, args, why, intent?, query?}.
   * `plan` is the latest plan-navigation result for this level (or null);
   * when the policy needs a fresh one it returns {query: true}.
   */
  next(frame, plan) {
    this.basis = frame.basis;
    // A cast that passed no turn was refused: no casting for a while.
    const cast = this.lastCast;
    if (cast && cast.turn === frame.basis.turn && ++cast.repeats >= 2) this.memory.castRefusedUntil = frame.basis.turn + 50;
    // So with a meal that passed no turn ("You can't do that while carrying so
    // much stuff"): the pack's food counts as out of reach for a while.
    const meal = this.lastMeal;
    if (meal && meal.turn === frame.basis.turn && ++meal.repeats >= 2) this.memory.mealRefusedUntil = frame.basis.turn + 50;
    const move = this.choose(frame, plan);
    if (move.args && move.args.action === 'cast') {
      this.lastCast = cast && cast.turn === frame.basis.turn ? cast : { turn: frame.basis.turn, repeats: 0 };
    } else this.lastCast = null;
    if (move.args && move.args.action === 'eat' && move.args.itemId) {
      this.lastMeal = meal && meal.turn === frame.basis.turn ? meal : { turn: frame.basis.turn, repeats: 0 };
    } else this.lastMeal = null;
    // Hungry with nothing to eat: short legs and rests, so Weak is met between
    // calls (and answered by a prayer or a meal) rather than fainted through.
    const hunger = frame.scene.self.vitals.hunger;
    if (HUNGRY.includes(hunger) && move.args) {
      if (move.args.maxActions > HUNGRY_BUDGET) move.args.maxActions = HUNGRY_BUDGET;
      if (move.args.turns > HUNGRY_BUDGET) move.args.turns = HUNGRY_BUDGET;
    }
    return move;
  }

  choose(frame, plan) {
    const scene = frame.scene;
    const self = scene.self;
    const vitals = self.vitals;
    const turn = frame.basis.turn;
    const base = { sessionId: frame.basis.sessionId, viewId: frame.basis.viewId };
    const level = this.memory.level(frame.basis.levelId);
    const hostiles = scene.entities.filter((entity) => entity.attitude === 'hostile');
    const adjacent = hostiles.filter((entity) => entity.distance === 1 && entity.direction);
    const fightable = adjacent.filter((entity) => !NEVER_MELEE.test(entity.appearance || ''));
    const nearest = hostiles.reduce((best, entity) => (best && best.distance <= entity.distance ? best : entity), null);
    const conditions = vitals.condition || [];
    const lowHp = vitals.hp <= 5 || vitals.hp * 7 <= vitals.hpMax;
    const deadly = conditions.filter((name) => DEADLY_CONDITIONS.includes(name));
    const reachable = !((this.memory.mealRefusedUntil ?? -Infinity) > turn);
    const noFood = !reachable || !packFood(scene.inventory);
    const starving = WEAK.includes(vitals.hunger) && noFood;
    const trouble = lowHp ? `HP ${vitals.hp}/${vitals.hpMax}` : starving ? `hunger ${vitals.hunger}`
      : deadly.length ? deadly.join(', ') : null;
    // (Hungry alone is minor trouble: with Luck 0 a god fixes only major
    // trouble, so such a prayer would only reset the timeout.)
    const fainting = starving && vitals.hunger !== 'weak';
    const gap = fainting ? FAINTING_PRAYER_GAP : starving ? STARVING_PRAYER_GAP : PRAYER_GAP;
    if (trouble && this.prayerLikelySafe(turn, gap)) {
      const what = trouble;
      const why = `in trouble (${what}) and the last prayer was ${this.memory.lastPrayer === null ? 'never' : `at turn ${this.memory.lastPrayer}`}: pray`;
      return { tool: 'interact', args: { ...base, action: 'pray' }, why, intent: { kind: 'pray', why } };
    }
    // A Healer heals itself with its spell before anything else is tried.
    if (self.role === 'Healer' && vitals.energy >= HEALING_ENERGY && vitals.hp * 2 < vitals.hpMax && this.mayCast(frame)) {
      return { tool: 'use', args: { ...base, action: 'cast', text: 'healing', direction: 'self' },
               why: `HP ${vitals.hp}/${vitals.hpMax}: cast healing on itself (Pw ${vitals.energy})` };
    }
    // The Gnomish Mines come in crowds, with arrows and bolts from afar that
    // Elbereth does not stop: hurt there with a hostile in sight, it goes back
    // up the stairs (and rests above before coming down again).
    const upstairs = nearest && vitals.hp * 3 < vitals.hpMax * 2 && this.stairsRefuge(frame, base, fightable);
    if (upstairs) return upstairs;
    const refuge = this.elberethMove(frame, base, hostiles, adjacent);
    if (refuge) return refuge;
    const bolt = this.forceBolt(scene, base, adjacent);
    if (bolt) {
      this.lastAttack = { turn, at: { x: bolt.target.x, y: bolt.target.y } };
      return bolt.move;
    }
    if (fightable.length) {
      const target = fightable[0];
      this.lastAttack = { turn, at: { x: target.x, y: target.y } };
      const why = vitals.hp * 3 < vitals.hpMax ? `cornered at HP ${vitals.hp}/${vitals.hpMax}: fight the ${target.appearance}`
        : `fight the ${target.appearance} to the ${target.direction}`;
      return { tool: 'interact', args: { ...base, action: 'attack', target: { direction: target.direction } }, why };
    }
    if (nearest && nearest.distance <= 3 && vitals.hp * 3 < vitals.hpMax) {
      const away = this.stepAway(scene, nearest);
      if (away) {
        return { tool: 'travel', args: { ...base, mode: 'step', target: { direction: away.direction } },
                 why: `HP ${vitals.hp}/${vitals.hpMax} and a ${nearest.appearance} is near: step away ${away.direction}` };
      }
    }
    // Any meal may be rotten (1 in 7 for a corpse; pack food past 30 turns
    // old) and leave the hero helpless: eat only with no hostile in sight,
    // unless Weak.
    const calm = !nearest || nearest.distance > EAT_CLEARANCE;
    if (HUNGRY.includes(vitals.hunger) && (calm || WEAK.includes(vitals.hunger))) {
      const food = reachable && packFood(scene.inventory);
      if (food) {
        return { tool: 'use', args: { ...base, action: 'eat', itemId: food.id }, why: `${vitals.hunger}: eat ${food.label}`,
                 intent: { kind: 'eat', itemId: food.id } };
      }
    }
    // Fresh safe corpses are eaten whenever the hero is not satiated (only
    // eating while satiated can choke): they keep a hero without food fed.
    // Weak, the meal wins over the risk of a hostile in sight.
    if (vitals.hunger !== 'satiated' && (calm || WEAK.includes(vitals.hunger))) {
      const corpse = this.freshCorpseHere(frame);
      if (corpse) {
        return { tool: 'use', args: { ...base, action: 'eat' }, why: `eat the fresh ${corpseName(corpse)} corpse underfoot`,
                 intent: { kind: 'eat', corpse } };
      }
      const kill = this.freshKillNear(frame);
      if (kill) {
        return { tool: 'travel', args: { ...base, mode: 'to', to: kill.at, maxActions: 6 },
                 why: `walk onto the fresh ${kill.name} corpse at ${kill.at.x},${kill.at.y} to eat it`, leg: 'to' };
      }
    }
    // (After meals: a hero next to something it must not touch still eats.)
    const untouchable = this.untouchableInTheWay(frame, level, hostiles, adjacent, base);
    if (untouchable) return untouchable;
    const threatNear = nearest && nearest.distance <= 5;
    // With no food in the pack, a % close by may be a ration (hungry: any % on the level).
    const hungry = HUNGRY.includes(vitals.hunger);
    if ((hungry || !packFood(scene.inventory)) && !threatNear) {
      const food = this.foodToCheck(frame, hungry ? Infinity : 8);
      if (food) {
        return { tool: 'travel', args: { ...base, mode: 'to', to: { x: food.x, y: food.y }, maxActions: 60 },
                 why: `${hungry ? vitals.hunger : 'no food in the pack'}: see whether the % at ${food.x},${food.y} is food`, leg: 'to' };
      }
    }
    const impaired = conditions.filter((name) => IMPAIRED.includes(name));
    if (!threatNear && (vitals.hp * 2 < vitals.hpMax || impaired.length)) {
      const why = impaired.length ? `${impaired.join(', ')}: wait it out` : `HP ${vitals.hp}/${vitals.hpMax}: rest`;
      return { tool: 'interact', args: { ...base, action: 'search', turns: 20 }, why };
    }
    const here = scene.here || {};
    const key = `${frame.basis.levelId}:${self.position.x},${self.position.y}`;
    if (!threatNear && (here.items || []).some((item) => FOOD_TO_PICK.test(item.label || '') && !SHOP_GOODS.test(item.label || ''))
        && !this.memory.pickedAt.has(key)) {
      this.memory.pickedAt.add(key);
      return { tool: 'interact', args: { ...base, action: 'pickup' }, why: 'food here: pick it up',
               intent: { kind: 'pickup', pattern: FOOD_TO_PICK } };
    }
    const gear = !threatNear && this.armourMove(frame, base, key);
    if (gear) return gear;
    return this.levelMove(frame, level, plan, base);
  }

  /** In the Mines: the way up (walked to with no hostile to fight adjacent, climbed when on it). */
  stairsRefuge(frame, base, fightable) {
    const self = frame.scene.self;
    if (!/Gnomish Mines/.test((self.level && self.level.dungeon) || '')) return null;
    const up = frame.scene.features.find((feature) => feature.kind === 'stairsUp' && feature.distance <= REFUGE_DISTANCE);
    if (!up) return null;
    const why = `HP ${self.vitals.hp}/${self.vitals.hpMax} among the Mines' crowds`;
    if (up.distance === 0) return { tool: 'travel', args: { ...base, mode: 'climb', direction: 'up' }, why: `${why}: up the stairs to rest` };
    const level = this.memory.level(frame.basis.levelId);
    if (fightable.length || level.refugeMisses >= 2) return null; // no route there (a crowd in the way)
    return { tool: 'travel', args: { ...base, mode: 'to', to: { x: up.x, y: up.y }, maxActions: 20 },
             why: `${why}: back to the stairs up at ${up.x},${up.y}`, leg: 'refuge' };
  }

  /** Wear carried plain armour for an empty slot; pick such a piece up; walk to a [ close by. */
  armourMove(frame, base, key) {
    const scene = frame.scene;
    const self = scene.self;
    const piece = armourToWear(scene.inventory, self.role);
    if (piece && !this.memory.wearTried.has(piece.id)) {
      this.memory.wearTried.add(piece.id);
      return { tool: 'equipment', args: { ...base, action: 'wear', itemId: piece.id }, why: `wear ${piece.label}`,
               intent: { kind: 'wear', itemId: piece.id } };
    }
    const worn = wornSlots(scene.inventory);
    const found = ((scene.here && scene.here.items) || []).find((item) => item.category === 'armor'
      && wearableSlot(item.label, self.role, worn));
    if (found && !this.memory.pickedAt.has(`${key}:armour`)) {
      this.memory.pickedAt.add(`${key}:armour`);
      return { tool: 'interact', args: { ...base, action: 'pickup' }, why: `${found.label} for an empty slot: pick it up`,
               intent: { kind: 'pickup', pattern: armourPattern(found.label) } };
    }
    const shown = (scene.objects || []).find((object) => object.mark === '[' && object.distance <= 6
      && !this.memory.armourChecks.has(`${frame.basis.levelId}:${object.x},${object.y}`));
    if (shown) {
      this.memory.armourChecks.add(`${frame.basis.levelId}:${shown.x},${shown.y}`);
      return { tool: 'travel', args: { ...base, mode: 'to', to: { x: shown.x, y: shown.y }, maxActions: 20 },
               why: `see whether the [ at ${shown.x},${shown.y} is armour to wear`, leg: 'to' };
    }
    return null;
  }

  /** To the way down: the descend leg, unless this level has a staircase to
   *  avoid (the Mines branch, or one back to a level given up), when it walks
   *  to the other one and climbs. */
  goDown(frame, downs, base, why) {
    const all = frame.scene.features.filter(isWayDown);
    if (all.length === downs.length) return { tool: 'travel', args: { ...base, mode: 'descend', maxActions: 120 }, why, leg: 'descend' };
    const hero = frame.scene.self.position;
    const target = downs[0];
    if (target.x === hero.x && target.y === hero.y) {
      return { tool: 'travel', args: { ...base, mode: 'climb', direction: 'down' }, why: `${why} (not the one it avoids)` };
    }
    return { tool: 'travel', args: { ...base, mode: 'to', to: { x: target.x, y: target.y }, maxActions: 120 },
             why: `${why}: the way down at ${target.x},${target.y}, not the one it avoids`, leg: 'descend' };
  }

  /** In the Gnomish Mines (hostile to all but dwarves and gnomes, a beginner's
   *  graveyard), go back up; the staircase that led there is then avoided. */
  leaveTheMines(frame, base) {
    const self = frame.scene.self;
    const level = self.level || {};
    if (!/Gnomish Mines/.test(level.dungeon || '') || ['dwarf', 'gnome'].includes(String(self.race).toLowerCase())
        || this.memory.minesAccepted) return null;
    const up = frame.scene.features.find((feature) => feature.kind === 'stairsUp');
    if (!up) return null;
    if (up.x === self.position.x && up.y === self.position.y) {
      return { tool: 'travel', args: { ...base, mode: 'climb', direction: 'up' }, why: 'the Gnomish Mines are no place for a beginner: go back up' };
    }
    return { tool: 'travel', args: { ...base, mode: 'to', to: { x: up.x, y: up.y }, maxActions: 120 },
             why: 'the Gnomish Mines are no place for a beginner: back to the stairs up', leg: 'to' };
  }

  /** A creature it must not touch where the hero has nowhere else to go
   *  (the level explored, the way down blocked, or searching): throw at it.
   *  A gas spore explodes for up to 24 HP on its neighbours when it dies: it
   *  is fought only with HP to spare, shot at from two squares or more, and
   *  next to a weaker hero it is kept off with Elbereth until it drifts away. */
  untouchableInTheWay(frame, level, hostiles, adjacent, base) {
    const scene = frame.scene;
    const vitals = scene.self.vitals;
    const stuck = level.explored || level.calls < level.descendBlockedUntil || level.searches > 0;
    if (!stuck || level.untouchableTries >= UNTOUCHABLE_TRIES) return null;
    const spore = (entity) => /gas spore/.test(entity.appearance || '');
    const throwAt = (entity, direction) => {
      const missile = missileAt(scene.inventory, direction, base);
      if (!missile) return null;
      level.untouchableTries += 1;
      return { ...missile, why: `the ${entity.appearance} to the ${direction} is in the way and must not be touched: `
        + `${missile.args.action} at it` };
    };
    const eye = adjacent.find((entity) => NEVER_MELEE.test(entity.appearance || '') && !spore(entity));
    if (eye) return throwAt(eye, eye.direction);
    // Stepped back from a spore two squares in line: in a dark corridor it is
    // out of sight now, but it was there a turn ago: shoot where it was.
    const backed = level.sporeBehind;
    level.sporeBehind = null;
    if (backed && frame.basis.turn - backed.turn <= 2 && !hostiles.some(spore)) {
      const shot = throwAt({ appearance: 'gas spore' }, backed.direction);
      if (shot) return { ...shot, why: `${shot.why} (out of sight where it was)` };
    }
    const near = adjacent.find(spore);
    if (near && vitals.hp > SPORE_BLAST) {
      return { tool: 'interact', args: { ...base, action: 'attack', target: { direction: near.direction } },
               why: `the gas spore to the ${near.direction} is in the way; HP ${vitals.hp} outlasts its blast: fight it` };
    }
    if (near && missileAt(scene.inventory, near.direction, base)) {
      // Too weak to take its blast, but with something to throw: step back to
      // two squares in line with it (out of the blast) and shoot from there.
      const back = (scene.nearby || []).find((cell) => cell.direction && cell.walkable && !cell.occupant && !cell.blocked
        && cell.terrain !== 'closedDoor' && !(cell.hazards && cell.hazards.length) && inLine(cell, near) === 2);
      if (back) {
        level.untouchableTries += 1;
        level.sporeBehind = { turn: frame.basis.turn, direction: directionOf(near.x - back.x, near.y - back.y) };
        return { tool: 'travel', args: { ...base, mode: 'step', target: { direction: back.direction } },
                 why: `the gas spore to the ${near.direction} is in the way and its blast could kill: step back ${back.direction} to shoot it` };
      }
    }
    if (near) {
      const at = scene.self.position;
      const mark = this.memory.elbereth;
      const onIt = mark && mark.levelId === frame.basis.levelId && mark.x === at.x && mark.y === at.y;
      if (!onIt && ENGRAVABLE.includes(scene.here && scene.here.terrain)) {
        level.untouchableTries += 1;
        this.memory.elbereth = { levelId: frame.basis.levelId, x: at.x, y: at.y, hp: vitals.hp };
        return { tool: 'use', args: { ...base, action: 'engrave', hands: true, text: 'Elbereth' },
                 why: 'a gas spore is in the way and its blast could kill: write Elbereth so it drifts off',
                 intent: { kind: 'engrave', text: 'Elbereth' } };
      }
      level.untouchableTries += 1; // a spore that stays is left be
      return { tool: 'interact', args: { ...base, action: 'search', turns: 5 }, why: 'wait for the gas spore to drift off' };
    }
    const hero = scene.self.position;
    for (const entity of hostiles.filter(spore)) {
      const dx = entity.x - hero.x;
      const dy = entity.y - hero.y;
      const far = Math.max(Math.abs(dx), Math.abs(dy));
      if (far < 2 || far > 5 || !(dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy))) continue;
      const shot = throwAt(entity, directionOf(dx, dy));
      if (shot) return shot;
    }
    return null;
  }

  /** Low HP, a threat near and no safe prayer: write Elbereth and rest on it.
   *  Resting stops (and the hero fights) once HP falls on the square, i.e.
   *  the engraving is misspelt or the attacker ignores it. */
  elberethMove(frame, base, hostiles, adjacent) {
    const scene = frame.scene;
    const vitals = scene.self.vitals;
    const at = scene.self.position;
    const levelId = frame.basis.levelId;
    const memory = this.memory;
    const mark = memory.elbereth;
    const onIt = mark && mark.levelId === levelId && mark.x === at.x && mark.y === at.y;
    const hurt = vitals.hp * 5 < vitals.hpMax * 2 || vitals.hp <= 5;
    const near = hostiles.filter((entity) => entity.distance <= 3);
    if (vitals.hp * 10 >= vitals.hpMax * 7 || WEAK.includes(vitals.hunger)) return null;
    const heeded = near.every((entity) => !IGNORES_ELBERETH.test(entity.mark === '@' ? '@' : (entity.appearance || '')));
    if (!heeded) return null;
    if (onIt) {
      if (vitals.hp < mark.hp) { memory.elbereth = null; return null; } // it did not keep them off
      mark.hp = vitals.hp;
      // Resting here beats any walk (to a corpse, say) until HP is back to 70%.
      return { tool: 'interact', args: { ...base, action: 'search', turns: near.length ? 5 : 20 },
               why: `HP ${vitals.hp}/${vitals.hpMax}: rest on Elbereth${near.length ? ` while the ${near[0].appearance || 'creature'} keeps off` : ''}` };
    }
    if (!near.length) return null;
    if (!hurt || !ENGRAVABLE.includes(scene.here && scene.here.terrain)) return null;
    if (IMPAIRED.some((name) => (vitals.condition || []).includes(name))) return null;
    const tries = memory.elberethTries.get(levelId) || 0;
    if (tries >= ELBERETH_TRIES) return null;
    memory.elberethTries.set(levelId, tries + 1);
    memory.elbereth = { levelId, x: at.x, y: at.y, hp: vitals.hp };
    const why = `HP ${vitals.hp}/${vitals.hpMax} with a ${near[0].appearance || 'creature'} ${adjacent.length ? 'adjacent' : 'near'} and no safe prayer: write Elbereth`;
    return { tool: 'use', args: { ...base, action: 'engrave', hands: true, text: 'Elbereth' }, why,
             intent: { kind: 'engrave', text: 'Elbereth' } };
  }

  /** A Wizard's force bolt (2d6, never misses in melee range) at an adjacent hostile while Pw lasts;
   *  safe against what must not be touched too, except a gas spore (it explodes). */
  forceBolt(scene, base, adjacent) {
    const vitals = scene.self.vitals;
    if (scene.self.role !== 'Wizard' || !(vitals.energy >= FORCE_BOLT_ENERGY) || !this.mayCast({ scene, basis: this.basis })) return null;
    const target = adjacent.find((entity) => !/gas spore/.test(entity.appearance || ''));
    if (!target) return null;
    return { target, move: { tool: 'use', args: { ...base, action: 'cast', text: 'force bolt', direction: target.direction },
                             why: `cast force bolt at the ${target.appearance} to the ${target.direction} (Pw ${vitals.energy})`,
                             intent: { kind: 'cast', direction: target.direction } } };
  }

  /** Casting is possible: not Weak ("too hungry to cast"), and no cast in the
   *  last few calls failed to pass a turn (a refused cast costs nothing, so it
   *  would be tried forever). */
  mayCast(frame) {
    if (WEAK.includes(frame.scene.self.vitals.hunger)) return false;
    return !((this.memory.castRefusedUntil ?? -Infinity) > frame.basis.turn);
  }

  /** The walkable empty neighbour farthest from the threat. */
  stepAway(scene, threat) {
    let best = null;
    for (const cell of scene.nearby || []) {
      if (!cell.walkable || cell.occupant || cell.terrain === 'closedDoor') continue;
      const gap = distance(cell, threat);
      if (gap > threat.distance && (!best || gap > best.gap)) best = { direction: cell.direction, gap };
    }
    return best;
  }

  /** The label of a fresh safe corpse underfoot not tried before, or null. */
  freshCorpseHere(frame) {
    const items = (frame.scene.here && frame.scene.here.items) || [];
    const where = `${frame.basis.levelId}:${frame.scene.self.position.x},${frame.scene.self.position.y}`;
    for (const item of items) {
      const label = String(item.label || item.name || item);
      const corpse = /^(?:an? |the )?(?:partly eaten )?(.+?) corpse$/.exec(label);
      const self = frame.scene.self;
      if (!corpse || !safeCorpse(corpse[1], self.race) || !corpseWelcome(corpse[1], self.role, self.vitals.hunger)
          || this.memory.eatTried.has(`${where}:${label}`)) continue;
      // Lichens and lizards never rot; others only when it killed them lately
      // on this very square (an older corpse of the same kind may lie nearby).
      const at = self.position;
      const fresh = NEVER_ROTS.includes(corpse[1]) || this.memory.kills.some((kill) => kill.name === corpse[1]
        && kill.levelId === frame.basis.levelId && frame.basis.turn - kill.turn <= CORPSE_FRESH_TURNS
        && kill.at && kill.at.x === at.x && kill.at.y === at.y);
      if (fresh) {
        this.memory.eatTried.add(`${where}:${label}`); // one try: a refused or interrupted meal is not retried
        return label;
      }
    }
    return null;
  }

  /** The nearest displayed % within `within` squares not looked at yet (each is walked to at most twice). */
  foodToCheck(frame, within) {
    const hero = frame.scene.self.position;
    const food = (frame.scene.objects || []).find((object) => object.mark === '%' && object.distance <= within
      && (this.memory.foodChecks.get(`${frame.basis.levelId}:${object.x},${object.y}`) || 0) < 2
      && !(object.x === hero.x && object.y === hero.y));
    if (food) {
      const key = `${frame.basis.levelId}:${food.x},${food.y}`;
      this.memory.foodChecks.set(key, (this.memory.foodChecks.get(key) || 0) + 1);
    }
    return food || null;
  }

  /** A fresh safe kill with a known square within 3 squares (not underfoot), or null;
   *  each is walked to at most twice. */
  freshKillNear(frame) {
    const hero = frame.scene.self.position;
    // Only where a % shows: small monsters leave a corpse only half the time.
    const shown = (at) => (frame.scene.objects || []).some((object) => object.mark === '%' && object.x === at.x && object.y === at.y);
    const kill = this.memory.kills.find((entry) => entry.at && (entry.walks || 0) < 2 && shown(entry.at)
      && entry.levelId === frame.basis.levelId && frame.basis.turn - entry.turn <= CORPSE_FRESH_TURNS
      && safeCorpse(entry.name, frame.scene.self.race) && corpseWelcome(entry.name, frame.scene.self.role, frame.scene.self.vitals.hunger)
      && distance(entry.at, hero) <= 3 && (entry.at.x !== hero.x || entry.at.y !== hero.y));
    if (kill) kill.walks = (kill.walks || 0) + 1;
    return kill || null;
  }

  /** Explore, open doors, search, or descend. */
  levelMove(frame, level, plan, base) {
    const scene = frame.scene;
    const leave = this.leaveTheMines(frame, base) || this.leaveSokoban(frame, base);
    if (leave) return leave;
    if (level.digs) { // digging was interrupted (a pit, a monster): dig on through
      const dig = this.digDown(scene, level, base);
      if (dig) return dig;
    }
    if (level.leaving) { // on the way to the stairs up
      const up = this.climbUp(frame, level, base);
      if (up) return up;
      level.leaving = false;
    }
    const downs = scene.features.filter((feature) => isWayDown(feature) && !this.avoidedDown(frame.basis.levelId, feature));
    const wayDown = downs.length > 0;
    const enough = level.explored || level.calls >= LEVEL_CALLS_BEFORE_DESCENT;
    if (wayDown && enough && level.calls >= level.descendBlockedUntil) {
      const vitals = scene.self.vitals;
      if (vitals.hp * 10 < vitals.hpMax * 7) {
        return { tool: 'interact', args: { ...base, action: 'search', turns: 20 },
                 why: `HP ${vitals.hp}/${vitals.hpMax}: rest before going down` };
      }
      // Another way down found on the way up is most likely the Mines' branch:
      // a beginner goes there with a prayer in reserve, if one is near.
      const turn = frame.basis.turn;
      const last = this.memory.lastPrayer;
      if (this.onTripUp(frame.basis.levelId) && !this.prayerLikelySafe(turn) && !this.memory.prayerUnsafe
          && last !== null && last + PRAYER_GAP - turn <= PRAYER_RESERVE_WAIT) {
        return { tool: 'interact', args: { ...base, action: 'search', turns: 20 },
                 why: `another way down, likely the Mines: wait for a prayer in reserve (turn ${last + PRAYER_GAP})` };
      }
      return this.goDown(frame, downs, base, level.explored ? 'the level is explored: go down' : 'explored enough: go down');
    }
    if (!level.explored) {
      return { tool: 'travel', args: { ...base, mode: 'explore', maxActions: 80, maxFrontiers: 20 },
               why: 'explore the nearest unexplored part', leg: 'explore' };
    }
    if (!plan) return { query: true };
    const hero = scene.self.position;
    const door = (plan.doors || []).find((entry) => entry.state === 'closed' && entry.distance !== null
      && (level.doorTries.get(`${entry.x},${entry.y}`) || 0)
        < (entry.approach && level.writingAt.has(`${entry.approach.x},${entry.approach.y}`) ? 2 : DOOR_TRIES)
      && ((level.doorWalks.get(`${entry.x},${entry.y}`) || 0) < 4
          || (entry.approach && entry.approach.x === hero.x && entry.approach.y === hero.y)));
    if (door) {
      const key = `${door.x},${door.y}`;
      if (hero.x !== door.approach.x || hero.y !== door.approach.y) {
        level.doorWalks.set(key, (level.doorWalks.get(key) || 0) + 1);
        return { tool: 'travel', args: { ...base, mode: 'to', to: door.approach, maxActions: 120 },
                 why: `walk to the closed door at ${key}`, leg: 'to' };
      }
      const tries = (level.doorTries.get(key) || 0) + 1;
      level.doorTries.set(key, tries);
      // Only a door the game said is locked is kicked: a stuck one ("The door
      // resists!") opens with another try, and kicking in a shop's door is deadly.
      const locked = door.lock && door.lock.state === 'locked';
      const action = locked && !level.writingAt.has(`${door.approach.x},${door.approach.y}`) ? 'kick' : 'open';
      level.explored = false; // what lies behind it is new
      return { tool: 'interact', args: { ...base, action, target: { direction: door.direction } },
               why: `${action} the ${locked ? 'locked ' : ''}door at ${key} (try ${tries})`, intent: { direction: door.direction } };
    }
    // A boulder may close the way on (routes never cross one): push it.
    const push = nextPush(scene, level.pushes);
    if (push) {
      const where = `${push.boulder.x},${push.boulder.y}`;
      if (hero.x !== push.approach.x || hero.y !== push.approach.y) {
        level.pushes.set(push.key, (level.pushes.get(push.key) || 0) + 0.5); // two failed walks give it up
        return { tool: 'travel', args: { ...base, mode: 'to', to: push.approach, maxActions: 120 },
                 why: `walk behind the boulder at ${where} to push it ${push.direction}`, leg: 'to' };
      }
      level.pushes.set(push.key, Math.floor(level.pushes.get(push.key) || 0) + 1);
      level.explored = false; // what lies behind it is new
      return { tool: 'travel', args: { ...base, mode: 'step', target: { direction: push.direction } },
               why: `push the boulder at ${where} ${push.direction}` };
    }
    const place = scene.self.level || {};
    const depth = place.depth || 0;
    const trip = this.onTripUp(frame.basis.levelId);
    // On the way up from a level given up, a level below the Mines' branch
    // levels (or a Mines level) is only explored, not searched.
    if (trip && (depth > BRANCH_DEEPEST || /Gnomish Mines/.test(place.dungeon || ''))) {
      const up = this.leaveUp(frame, level, base, 'on the way up for another way down: nothing more to see here');
      if (up) return up;
    }
    // Dead ends first, then the wall spots with the most undiscovered around them.
    const spots = [...(plan.deadEnds || []), ...(plan.searchSpots || [])];
    const spot = spots.find((entry) => entry.distance !== null
      && (level.searched.get(`${entry.x},${entry.y}`) || 0) < ((plan.deadEnds || []).includes(entry) ? DEAD_END_SEARCHES : SPOT_SEARCHES));
    if (spot) {
      const key = `${spot.x},${spot.y}`;
      const kind = (plan.deadEnds || []).includes(spot) ? 'dead end' : 'wall';
      if (hero.x !== spot.x || hero.y !== spot.y) {
        level.searched.set(key, (level.searched.get(key) || 0) + 0.5); // two failed walks give it up
        return { tool: 'travel', args: { ...base, mode: 'to', to: { x: spot.x, y: spot.y }, maxActions: 120 },
                 why: `walk to the ${kind} at ${key} to search`, leg: 'to' };
      }
      level.searched.set(key, Math.floor((level.searched.get(key) || 0)) + 1);
      level.explored = false;
      return { tool: 'interact', args: { ...base, action: 'search', turns: SPOT_SEARCH },
               why: `search the ${kind} at ${key}` };
    }
    if (wayDown && level.calls >= level.descendBlockedUntil) return this.goDown(frame, downs, base, 'nothing else to try: go down');
    if (trip) {
      // A branch level's dead ends and spots are searched too (not a whole round):
      // then further up while branch levels are above, else back down to search again.
      if (depth > BRANCH_SHALLOWEST) {
        const up = this.leaveUp(frame, level, base, 'no other way down here either: further up');
        if (up) return up;
      }
      this.endTrips();
      return { tool: 'interact', args: { ...base, action: 'search', turns: 5 },
               why: 'no other way down found above: back down to the level given up, to search it again' };
    }
    if (level.searches < LEVEL_SEARCH_CAP) {
      level.searches += 1;
      if (level.searches % 4 === 0) level.explored = false; // look again at what searching revealed
      // Walls out of reach one after another: the hero is shut in, by known
      // traps the routes avoid (it came in over one), so it steps onto one.
      if (level.freshMisses >= FRESH_MISSES) {
        const over = this.stepOverTrap(scene, level, base);
        if (over) return over;
      }
      const fresh = level.freshMisses < FRESH_MISSES && freshSearchSpot(scene, level.searched);
      if (fresh) {
        const key = `${fresh.x},${fresh.y}`;
        if (hero.x !== fresh.x || hero.y !== fresh.y) {
          level.searched.set(key, (level.searched.get(key) || 0) + 0.5); // two failed walks give it up
          return { tool: 'travel', args: { ...base, mode: 'to', to: fresh, maxActions: 120 },
                   why: `no way on: search the wall at ${key}, not searched yet`, leg: 'freshSearch' };
        }
        level.searched.set(key, Math.floor(level.searched.get(key) || 0) + 1);
        return { tool: 'interact', args: { ...base, action: 'search', turns: SPOT_SEARCH },
                 why: `search the wall at ${key} (${level.searches}/${LEVEL_SEARCH_CAP})` };
      }
      const fallback = this.searchSpot(plan, hero, level);
      if (fallback) {
        return { tool: 'travel', args: { ...base, mode: 'to', to: fallback, maxActions: 120 },
                 why: `no way on: try searching from ${fallback.x},${fallback.y}`, leg: 'to' };
      }
      return { tool: 'interact', args: { ...base, action: 'search', turns: SPOT_SEARCH },
               why: `no door, dead end or way down left: search here (${level.searches}/${LEVEL_SEARCH_CAP})` };
    }
    level.searches = 0;
    level.explored = false;
    level.rounds += 1;
    const dig = this.digDown(scene, level, base);
    if (dig) return dig;
    const mines = [...this.memory.avoidDown].filter((key) => key.startsWith(`${frame.basis.levelId}:`));
    if (mines.length) {
      for (const key of mines) this.memory.avoidDown.delete(key);
      this.memory.minesAccepted = true;
      return this.goDown(frame, scene.features.filter(isWayDown),
                         base, 'no other way down after a whole round of searching: take the Gnomish Mines');
    }
    // A whole round of searching found no way down: go up and look for
    // another (the Mines' branch, a part of a level above not explored),
    // rather than search on here for thousands of turns while food runs out.
    if (level.rounds >= ROUNDS_BEFORE_TRIP && level.trips < TRIPS_UP && depth > BRANCH_SHALLOWEST && !/Sokoban/.test(place.dungeon || '')) {
      const up = this.leaveUp(frame, level, base, 'no way down found after a whole round of searching: go up and look for another');
      if (up) {
        level.trips += 1;
        this.memory.minesAccepted = true; // the Mines are a way on like any other now
        return up;
      }
    }
    // Every spot and door gets another round (walks to them may have been cut short).
    level.searched.clear();
    level.freshMisses = 0;
    level.pushes.clear();
    level.doorWalks.clear();
    level.doorTries.clear();
    return { tool: 'interact', args: { ...base, action: 'search', turns: 5 }, why: 'search cap reached: start over' };
  }

  /** Start leaving this level by its way up (see climbUp); null when it has none. */
  leaveUp(frame, level, base, why) {
    level.leaving = true;
    level.leavingWhy = why;
    level.upWalks = 0;
    const up = this.climbUp(frame, level, base);
    if (!up) level.leaving = false;
    return up;
  }

  /** Walk to the staircase up (the one the hero came down by, if known) and climb it. */
  climbUp(frame, level, base) {
    const scene = frame.scene;
    const levelId = frame.basis.levelId;
    const hero = scene.self.position;
    const ups = scene.features.filter((feature) => (feature.kind === 'stairsUp' || feature.kind === 'ladderUp')
      && !this.memory.avoidUp.has(`${levelId}:${feature.x},${feature.y}`));
    if (!ups.length) return null;
    const arrival = level.arrival;
    const target = ups.find((feature) => arrival && feature.x === arrival.x && feature.y === arrival.y) || ups[0];
    const why = level.leavingWhy || 'go up';
    if (target.x === hero.x && target.y === hero.y) {
      level.leaving = false;
      this.memory.climbingFrom = levelId;
      return { tool: 'travel', args: { ...base, mode: 'climb', direction: 'up' }, why: `${why}: climb` };
    }
    if (level.upWalks >= UP_WALKS) return null;
    level.upWalks += 1;
    return { tool: 'travel', args: { ...base, mode: 'to', to: { x: target.x, y: target.y }, maxActions: 120 },
             why: `${why}: walk to the stairs up at ${target.x},${target.y}`, leg: 'to' };
  }

  /** Back down from a way up that found nothing: the levels given up are
   *  searched again from scratch (what was searched there is forgotten). */
  endTrips() {
    for (const below of this.memory.leadsBack.values()) {
      const given = this.memory.level(below);
      given.searched.clear();
      given.searches = 0;
      given.freshMisses = 0;
      given.pushes.clear();
      given.doorWalks.clear();
      given.doorTries.clear();
      given.explored = false;
    }
    this.memory.leadsBack.clear();
  }

  /** Sokoban (up from the level below the Oracle) has no way down but back: go back down. */
  leaveSokoban(frame, base) {
    const self = frame.scene.self;
    if (!/Sokoban/.test((self.level && self.level.dungeon) || '')) return null;
    const down = frame.scene.features.find(isWayDown);
    if (!down) return null;
    if (down.x === self.position.x && down.y === self.position.y) {
      return { tool: 'travel', args: { ...base, mode: 'climb', direction: 'down' }, why: 'Sokoban is no way down: go back' };
    }
    return { tool: 'travel', args: { ...base, mode: 'to', to: { x: down.x, y: down.y }, maxActions: 120 },
             why: 'Sokoban is no way down: back to the stairs', leg: 'to' };
  }

  /** Shut in: step onto an adjacent known trap (not water or lava), a few times per level. */
  stepOverTrap(scene, level, base) {
    if (level.trapSteps >= TRAP_STEPS) return null;
    const cell = (scene.nearby || []).find((entry) => entry.direction && entry.walkable !== false && !entry.occupant
      && entry.hazards && entry.hazards.length && entry.hazards.every((hazard) => hazard === 'trap'));
    if (!cell) return null;
    level.trapSteps += 1;
    level.freshMisses = 0;
    return { tool: 'travel', args: { ...base, mode: 'step', target: { direction: cell.direction } },
             why: `no route out of here but over the trap at ${cell.x},${cell.y}: step onto it` };
  }

  /** A digging tool (an Archeologist's or a Dwarf's pick-axe) is a way down
   *  from anywhere: dig through the floor, a few tries per level. */
  digDown(scene, level, base) {
    const digger = (scene.inventory || []).find((item) => /pick-axe|mattock/.test(item.label || '') && !/cursed/.test(item.label || ''));
    if (!digger || level.digs >= DIGS_PER_LEVEL) return null;
    level.digs += 1;
    return { tool: 'use', args: { ...base, action: 'apply', itemId: digger.id },
             why: 'no way down found after a whole round of searching: dig down with the pick-axe',
             intent: { kind: 'dig', itemId: digger.id, direction: 'down' } };
  }

  /** Every fourth search call walks on to another door's approach square to search from:
   *  hidden corridors and doors tend to continue what the known ones started. */
  searchSpot(plan, hero, level) {
    if (level.searches % 4 !== 1) return null;
    const candidates = (plan.doors || []).filter((door) => door.approach && door.distance)
      .map((door) => door.approach).filter((spot) => !(spot.x === hero.x && spot.y === hero.y));
    if (!candidates.length) return null;
    return candidates[(level.searches >> 2) % candidates.length];
  }

  /** After a leg: remember what it says about the level. */
  afterLeg(frame, leg, levelId, turnBefore) {
    const level = this.memory.level(levelId);
    const result = frame.result || {};
    if (leg === 'explore') {
      if (result.stopReason === 'noFrontier') level.explored = true;
      // A leg whose steps passed no turn bumped into something it believed
      // open (a vault guard's corridor that vanished): as good as no step.
      const progressed = result.actionsTaken && !(frame.basis && frame.basis.turn === turnBefore);
      level.stalls = progressed ? 0 : level.stalls + 1;
      if (level.stalls >= 3) { level.explored = true; level.stalls = 0; }
    }
    if (leg === 'refuge') level.refugeMisses = result.stopReason === 'noRoute' ? level.refugeMisses + 1 : 0;
    if (leg === 'freshSearch') level.freshMisses = result.stopReason === 'noRoute' ? level.freshMisses + 1 : 0;
    if (leg === 'descend' && (result.stopReason === 'noRoute' || result.stopReason === 'noWayDown')) {
      level.descendBlockedUntil = level.calls + 20;
      if (result.why === 'closedDoor' || result.why === 'disconnected') level.explored = true;
    }
  }
}
