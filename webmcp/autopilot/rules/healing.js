// healing.js - spells a hero casts on itself or at an adjacent hostile:
// a Healer's healing below half HP, a Wizard's force bolt (2d6, never
// misses at melee range) while the power lasts.

import { WEAK } from './context.js';

const FORCE_BOLT_ENERGY = 5;
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
  if (ctx.self.role !== 'Wizard' || !(vitals.energy >= FORCE_BOLT_ENERGY) || !mayCast(ctx)) return null;
  const target = ctx.adjacent.find((entity) => !/gas spore/.test(entity.appearance || ''));
  if (!target) return null;
  return { tool: 'use', args: { ...ctx.base, action: 'cast', text: 'force bolt', direction: target.direction },
           why: `cast force bolt at the ${target.appearance} to the ${target.direction} (Pw ${vitals.energy})`,
           intent: { kind: 'cast', direction: target.direction } };
}
