// pushing.js - a boulder may close the way on (routes never cross one): push it.

import { nextPush } from '../boulders.js';
import { pushFromWayOn } from './wayon.js';

/** From `plan wayOn` when the server has it; else from the map as the player saw it (boulders.js). */
export function pushBoulders(ctx) {
  if (ctx.wayOn) return pushFromWayOn(ctx);
  const { level, hero } = ctx;
  const push = nextPush(ctx.scene, level.pushes);
  if (!push) return null;
  const where = `${push.boulder.x},${push.boulder.y}`;
  if (hero.x !== push.approach.x || hero.y !== push.approach.y) {
    level.pushes.set(push.key, (level.pushes.get(push.key) || 0) + 0.5); // two failed walks give it up
    return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: push.approach, maxActions: 120 },
             why: `walk behind the boulder at ${where} to push it ${push.direction}`, leg: 'to' };
  }
  level.pushes.set(push.key, Math.floor(level.pushes.get(push.key) || 0) + 1);
  level.explored = false; // what lies behind it is new
  return { tool: 'travel', args: { ...ctx.base, mode: 'step', target: { direction: push.direction } },
           why: `push the boulder at ${where} ${push.direction}` };
}
