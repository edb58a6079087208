// descent.js - the level's main line: go down once a way down is known and
// the level is explored enough (HP at 70% first), else explore.

import { PRAYER_GAP, prayerLikelySafe } from './prayer.js';
import { goDown, onTripUp, waysDown } from './ways.js';

// How long one level may take before a known way down wins over exploring:
// a beginner does not clear the first levels (depth is what a run measures,
// and a long stay only spends food).
export const LEVEL_CALLS_BEFORE_DESCENT = 30;
const PRAYER_RESERVE_WAIT = 300; // turns it waits, at most, for a prayer in reserve before that way down

export function descendWhenReady(ctx) {
  const { level, vitals, memory, turn } = ctx;
  const downs = waysDown(ctx);
  const enough = level.explored || level.calls >= LEVEL_CALLS_BEFORE_DESCENT;
  if (!downs.length || !enough || level.calls < level.descendBlockedUntil) return null;
  if (vitals.hp * 10 < vitals.hpMax * 7) {
    return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 20 },
             why: `HP ${vitals.hp}/${vitals.hpMax}: rest before going down` };
  }
  // Another way down found on the way up is most likely the Mines' branch:
  // a beginner goes there with a prayer in reserve, if one is near.
  const last = memory.lastPrayer;
  if (onTripUp(memory, ctx.levelId) && !prayerLikelySafe(memory, turn) && !memory.prayerUnsafe
      && last !== null && last + PRAYER_GAP - turn <= PRAYER_RESERVE_WAIT) {
    return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 20 },
             why: `another way down, likely the Mines: wait for a prayer in reserve (turn ${last + PRAYER_GAP})` };
  }
  return goDown(ctx, downs, level.explored ? 'the level is explored: go down' : 'explored enough: go down');
}

export function explore(ctx) {
  if (ctx.level.explored) return null;
  return { tool: 'travel', args: { ...ctx.base, mode: 'explore', maxActions: 80, maxFrontiers: 20 },
           why: 'explore the nearest unexplored part', leg: 'explore' };
}

/** Everything after this reads the level's plan (plan navigation): ask for it. */
export function needPlan(ctx) {
  return ctx.plan ? null : { query: true };
}
