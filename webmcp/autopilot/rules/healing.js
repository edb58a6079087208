// healing.js - spells a hero casts on itself or at a hostile: a Healer's
// healing below half HP, a Wizard's force bolt (2d6) while the power
// lasts: at an adjacent hostile, or, with power for two casts, at one in
// line up to FORCE_BOLT_RANGE squares off before it closes in (the bolt
// flies 6 to 13 squares, zap.c's bhit, and stops at the first creature:
// never with a pet or peaceful in the line).

import { WEAK, directionOf, inLine, onOwnElbereth } from './context.js';
import { clearShot } from './ranged.js';

const FORCE_BOLT_ENERGY = 5;
export const FORCE_BOLT_RANGE = 5;
const HEALING_ENERGY = 5;

/** Casting is possible: not Weak ("too hungry to cast"), and no cast in the
 *  last few calls failed to pass a turn (a refused cast costs nothing, so it
 *  would be tried forever). */
export function mayCast(ctx) {
  if (WEAK.includes(ctx.vitals.hunger)) return false;
  return !((ctx.memory.castRefusedUntil ?? -Infinity) > ctx.turn);
}

export function healerHeals(ctx) {
  const { vitals } = ctx;
  if (ctx.self.role !== 'Healer' || vitals.energy < HEALING_ENERGY || vitals.hp * 2 >= vitals.hpMax || !mayCast(ctx)) return null;
  return { tool: 'use', args: { ...ctx.base, action: 'cast', text: 'healing', direction: 'self' },
           why: `HP ${vitals.hp}/${vitals.hpMax}: cast healing on itself (Pw ${vitals.energy})` };
}

/** Safe against what must not be touched too, except a gas spore (it explodes). */
export function forceBolt(ctx) {
  const { vitals } = ctx;
  if (ctx.self.role !== 'Wizard' || !(vitals.energy >= FORCE_BOLT_ENERGY) || !mayCast(ctx) || onOwnElbereth(ctx)) return null;
  // Adjacent too, a clear line: a bat or a fleeing creature steps aside and the bolt flies on into a shopkeeper.
  const target = ctx.adjacent.find((entity) => !/gas spore/.test(entity.appearance || '') && clearShot(ctx, entity)) || farTarget(ctx);
  if (!target) return null;
  const direction = target.direction && target.distance === 1 ? target.direction : directionOf(target.x - ctx.hero.x, target.y - ctx.hero.y);
  const where = target.distance === 1 ? `to the ${direction}` : `${inLine(ctx.hero, target)} squares to the ${direction}`;
  return { tool: 'use', args: { ...ctx.base, action: 'cast', text: 'force bolt', direction },
           why: `cast force bolt at the ${target.appearance} ${where} (Pw ${vitals.energy})`,
           intent: { kind: 'cast', direction } };
}

/** The nearest hostile in line, 2 to FORCE_BOLT_RANGE squares off with a clear line, when Pw lasts for two casts. */
function farTarget(ctx) {
  if (ctx.vitals.energy < 2 * FORCE_BOLT_ENERGY) return null;
  return ctx.hostiles.map((entity) => ({ entity, range: inLine(ctx.hero, entity) }))
    .filter(({ entity, range }) => range >= 2 && range <= FORCE_BOLT_RANGE && clearShot(ctx, entity))
    .sort((a, b) => a.range - b.range).map(({ entity }) => entity)[0] || null;
}
