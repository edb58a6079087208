// context.js - what every rule reads: one ready frame, the latest plan, the
// per-game memory and the facts derived from them once (hostiles, hunger,
// HP), so each rule is a small `(context) -> move | null`.

import { packFood } from '../food.js';

// (An acid blob's passive splash is a few HP at most: fought, or it can wall a hero in a doorway.)
export const NEVER_MELEE = /floating eye|cockatrice|chickatrice|gas spore|mold|jelly/;
export const DEADLY_CONDITIONS = ['stone', 'slime', 'strangled', 'foodPoisoning', 'terminallyIll'];
export const IMPAIRED = ['stunned', 'confused', 'hallucinating', 'blind'];
export const HUNGRY = ['hungry', 'weak', 'fainting', 'fainted'];
export const WEAK = ['weak', 'fainting', 'fainted'];
export const EAT_CLEARANCE = 6; // no hostile this close while eating
export const THREAT_NEAR = 5; // a hostile this close keeps the hero from chores (pickups, food checks, rests)
export const ENGRAVABLE = ['floor', 'corridor', 'doorway', undefined];

export function isWayDown(feature) {
  return feature.kind === 'stairsDown' || feature.kind === 'ladderDown';
}

/** The compass direction of a step by (dx, dy), each -1, 0 or 1 (or its sign). */
export function directionOf(dx, dy) {
  return `${dy < 0 ? 'north' : dy > 0 ? 'south' : ''}${dx > 0 ? 'east' : dx < 0 ? 'west' : ''}`;
}

/** The distance from a to b when they share a row, column or diagonal, else 0. */
export function inLine(a, b) {
  const dx = Math.abs(a.x - b.x);
  const dy = Math.abs(a.y - b.y);
  return dx === 0 || dy === 0 || dx === dy ? Math.max(dx, dy) : 0;
}

export function distance(a, b) {
  return Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y));
}

/** The hero stands where it last wrote Elbereth (as far as it knows, still there): an attack from here, even a
 *  missile or a spell, costs alignment (mon.c setmangry) and rubs the engraving out. */
export function onOwnElbereth(ctx) {
  const mark = ctx.memory.elbereth;
  return Boolean(mark && mark.levelId === ctx.levelId && mark.x === ctx.hero.x && mark.y === ctx.hero.y);
}

export function samePlace(a, b) {
  return Boolean(a && b) && a.x === b.x && a.y === b.y;
}

/** The context of one decision. `policy` is the CarefulBeginner (its memory and prayer clock).
 * @param {any} policy
 * @param {any} frame
 * @param {any} plan
 * @param {Record<string, any> | null} [wayOn] */
export function contextOf(policy, frame, plan, wayOn = null) {
  const scene = frame.scene;
  const self = scene.self;
  const vitals = self.vitals;
  const memory = policy.memory;
  const turn = frame.basis.turn;
  const levelId = frame.basis.levelId;
  const hostiles = (scene.entities || []).filter((entity) => entity.attitude === 'hostile');
  const adjacent = hostiles.filter((entity) => entity.distance === 1 && entity.direction);
  const nearest = hostiles.reduce((best, entity) => (best && best.distance <= entity.distance ? best : entity), null);
  const reachable = !((memory.mealRefusedUntil ?? -Infinity) > turn);
  const food = reachable ? packFood(scene.inventory) : null;
  return {
    policy, memory, frame, scene, self, vitals, turn, levelId, plan,
    wayOn: wayOn && !wayOn.unavailable ? wayOn : null, wayOnAsked: Boolean(wayOn),
    base: { sessionId: frame.basis.sessionId, viewId: frame.basis.viewId },
    level: memory.level(levelId),
    hero: self.position,
    hostiles, adjacent, nearest,
    fightable: adjacent.filter((entity) => !NEVER_MELEE.test(entity.appearance || '')),
    conditions: vitals.condition || [],
    packFood: food, // the pack food to eat, null when none (or a meal was refused lately)
    hungry: HUNGRY.includes(vitals.hunger),
    weak: WEAK.includes(vitals.hunger),
    threatNear: Boolean(nearest && nearest.distance <= THREAT_NEAR),
    calm: !nearest || nearest.distance > EAT_CLEARANCE,
    dungeon: (self.level && self.level.dungeon) || '',
    depth: (self.level && self.level.depth) || 0,
  };
}
