// combat.js - fight what is adjacent and safe to touch; walk at a hostile
// that stands on the only way on (an explore leg's `creatureInTheWay` stop
// names its square), rather than calling the level explored.

import { NEVER_MELEE, samePlace } from './context.js';

const BLOCKER_WALKS = 4; // per level: walks toward a hostile in the way before the level counts as explored
const BLOCKER_FRESH_TURNS = 30;

export function fightAdjacent(ctx) {
  const target = ctx.fightable[0];
  if (!target) return null;
  const { vitals } = ctx;
  const why = vitals.hp * 3 < vitals.hpMax ? `cornered at HP ${vitals.hp}/${vitals.hpMax}: fight the ${target.appearance}`
    : `fight the ${target.appearance} to the ${target.direction}`;
  return { tool: 'interact', args: { ...ctx.base, action: 'attack', target: { direction: target.direction } }, why };
}

/** The last explore leg stopped because a creature stands on the only way
 *  to a frontier: a hostile one (not one never to touch) is walked at. */
export function hostileInTheWay(ctx) {
  const { level } = ctx;
  const blocker = level.blocker;
  if (!blocker || ctx.turn - blocker.turn > BLOCKER_FRESH_TURNS || level.blockerWalks >= BLOCKER_WALKS) return null;
  const there = ctx.hostiles.find((entity) => samePlace(entity, blocker.at) && !NEVER_MELEE.test(entity.appearance || ''));
  level.blocker = null;
  if (!there) { level.explored = true; return null; } // a peaceful one, or gone from sight: as noFrontier always meant
  level.blockerWalks += 1;
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: there.x, y: there.y }, maxActions: 20 },
           why: `the ${there.appearance} at ${there.x},${there.y} stands in the way on: go at it`, leg: 'to' };
}
