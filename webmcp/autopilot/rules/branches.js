// branches.js - places a beginner leaves: the Gnomish Mines (hostile to all
// but dwarves and gnomes) until they are the only way on, Sokoban (no way
// down but back); and a climb up or a dig already under way is kept on.

import { isWayDown } from './context.js';
import { climbUp, digDown } from './ways.js';

export function leaveTheMines(ctx) {
  const { self, memory } = ctx;
  if (!/Gnomish Mines/.test(ctx.dungeon) || ['dwarf', 'gnome'].includes(String(self.race).toLowerCase())
      || memory.minesAccepted) return null;
  const up = ctx.scene.features.find((feature) => feature.kind === 'stairsUp');
  if (!up) return null;
  if (up.x === ctx.hero.x && up.y === ctx.hero.y) {
    return { tool: 'travel', args: { ...ctx.base, mode: 'climb', direction: 'up' }, why: 'the Gnomish Mines are no place for a beginner: go back up' };
  }
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: up.x, y: up.y }, maxActions: 120 },
           why: 'the Gnomish Mines are no place for a beginner: back to the stairs up', leg: 'to' };
}

/** Sokoban (up from the level below the Oracle) has no way down but back: go back down. */
export function leaveSokoban(ctx) {
  if (!/Sokoban/.test(ctx.dungeon)) return null;
  const down = ctx.scene.features.find(isWayDown);
  if (!down) return null;
  if (down.x === ctx.hero.x && down.y === ctx.hero.y) {
    return { tool: 'travel', args: { ...ctx.base, mode: 'climb', direction: 'down' }, why: 'Sokoban is no way down: go back' };
  }
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: down.x, y: down.y }, maxActions: 120 },
           why: 'Sokoban is no way down: back to the stairs', leg: 'to' };
}

/** Digging was interrupted (a pit, a monster): dig on through. */
export function digOn(ctx) {
  return ctx.level.digs ? digDown(ctx) : null;
}

/** On the way to the stairs up: keep going. */
export function keepLeaving(ctx) {
  if (!ctx.level.leaving) return null;
  const up = climbUp(ctx);
  if (!up) ctx.level.leaving = false;
  return up;
}
