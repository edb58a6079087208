// ways.js - moving between levels: the way down (avoiding a staircase the
// memory marks), the way up (the one the hero came down by), digging down,
// and which ways down are avoided (the Mines before they are accepted, a
// staircase back to a level given up).

import { isWayDown } from './context.js';

const UP_WALKS = 8; // walks to the staircase up (legs stop for every new creature) before giving the climb up
const DIGS_PER_LEVEL = 6; // applications of a pick-axe downward (an interrupted dig leaves a pit)

/** True when the way down at `feature` is not to be taken now. */
export function avoidedDown(memory, levelId, feature) {
  const key = `${levelId}:${feature.x},${feature.y}`;
  return memory.leadsBack.has(key) || (!memory.minesAccepted && memory.avoidDown.has(key));
}

/** The ways down of this level not avoided now. */
export function waysDown(ctx) {
  return ctx.scene.features.filter((feature) => isWayDown(feature) && !avoidedDown(ctx.memory, ctx.levelId, feature));
}

/** This level is on the way up from a level given up (its way down leads back there). */
export function onTripUp(memory, levelId) {
  return [...memory.leadsBack.keys()].some((key) => key.startsWith(`${levelId}:`));
}

/** To the way down: the descend leg, unless this level has a staircase to
 *  avoid, when it walks to the other one and climbs. */
export function goDown(ctx, downs, why) {
  const all = ctx.scene.features.filter(isWayDown);
  if (all.length === downs.length) return { tool: 'travel', args: { ...ctx.base, mode: 'descend', maxActions: 120 }, why, leg: 'descend' };
  const target = downs[0];
  if (target.x === ctx.hero.x && target.y === ctx.hero.y) {
    return { tool: 'travel', args: { ...ctx.base, mode: 'climb', direction: 'down' }, why: `${why} (not the one it avoids)` };
  }
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: target.x, y: target.y }, maxActions: 120 },
           why: `${why}: the way down at ${target.x},${target.y}, not the one it avoids`, leg: 'descend' };
}

/** Walk to the staircase up (the one the hero came down by, if known) and climb it. */
export function climbUp(ctx) {
  const { memory, level, levelId, hero } = ctx;
  const ups = ctx.scene.features.filter((feature) => (feature.kind === 'stairsUp' || feature.kind === 'ladderUp')
    && !memory.avoidUp.has(`${levelId}:${feature.x},${feature.y}`));
  if (!ups.length) return null;
  const arrival = level.arrival;
  const target = ups.find((feature) => arrival && feature.x === arrival.x && feature.y === arrival.y) || ups[0];
  const why = level.leavingWhy || 'go up';
  if (target.x === hero.x && target.y === hero.y) {
    level.leaving = false;
    memory.climbingFrom = levelId;
    return { tool: 'travel', args: { ...ctx.base, mode: 'climb', direction: 'up' }, why: `${why}: climb` };
  }
  if (level.upWalks >= UP_WALKS) return null;
  level.upWalks += 1;
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: target.x, y: target.y }, maxActions: 120 },
           why: `${why}: walk to the stairs up at ${target.x},${target.y}`, leg: 'to' };
}

/** Start leaving this level by its way up; null when it has none. */
export function leaveUp(ctx, why) {
  const { level } = ctx;
  level.leaving = true;
  level.leavingWhy = why;
  level.upWalks = 0;
  const up = climbUp(ctx);
  if (!up) level.leaving = false;
  return up;
}

/** A digging tool (an Archeologist's or a Dwarf's pick-axe) is a way down
 *  from anywhere: dig through the floor, a few tries per level. */
export function digDown(ctx) {
  const digger = (ctx.scene.inventory || []).find((item) => /pick-axe|mattock/.test(item.label || '') && !/cursed/.test(item.label || ''));
  if (!digger || ctx.level.digs >= DIGS_PER_LEVEL) return null;
  ctx.level.digs += 1;
  return { tool: 'use', args: { ...ctx.base, action: 'apply', itemId: digger.id },
           why: 'no way down found after a whole round of searching: dig down with the pick-axe',
           intent: { kind: 'dig', itemId: digger.id, direction: 'down' } };
}

/** Back down from a way up that found nothing: the levels given up are
 *  searched again from scratch (what was searched there is forgotten). */
export function endTrips(memory) {
  for (const below of memory.leadsBack.values()) {
    const given = memory.level(below);
    given.searched.clear();
    given.searches = 0;
    given.freshMisses = 0;
    given.pushes.clear();
    given.doorWalks.clear();
    given.doorTries.clear();
    given.explored = false;
  }
  memory.leadsBack.clear();
}
