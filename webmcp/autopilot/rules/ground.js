// ground.js - meet a crowd one at a time: half the heroes that die have two
// or more hostiles adjacent at the end, most of them caught in a room. With
// two or more hostiles within CROWD_DISTANCE and at most one adjacent, a
// hero standing in the open (a room square: five or more walkable
// neighbours) steps into a neighbouring corridor or door square (an open
// door lets nothing at it diagonally), the one farthest from the nearest
// hostile; a hero already on such narrow ground with none adjacent waits
// there a few turns for them to come to it, rather than walk out to them.
// The ground is read from `scene.nearby` (terrain and walkable per
// neighbour), never from the map text.

import { distance } from './context.js';

export const CROWD_DISTANCE = 4;
export const OPEN_NEIGHBOURS = 5; // walkable neighbours: more than a corridor or doorway has
const NARROW = { corridor: 1, openDoor: 0, doorway: 2 }; // preference: an open door best (no diagonals), then corridor
const HOLD_TURNS = 8; // waits per level on narrow ground before the hero goes on anyway

const DIAGONAL = /^(?:north|south)(?:east|west)$/;

const walkableCells = (ctx) => (ctx.scene.nearby || []).filter((cell) => cell.direction && cell.walkable === true);

/** Two or more hostiles close, at most one adjacent: the crowd, nearest first, or null. */
function crowd(ctx) {
  const close = ctx.hostiles.filter((entity) => entity.distance <= CROWD_DISTANCE).sort((a, b) => a.distance - b.distance);
  return close.length >= 2 && ctx.adjacent.length <= 1 ? close : null;
}

export function narrowGround(ctx) {
  const foes = crowd(ctx);
  if (!foes) return null;
  const here = (ctx.scene.here && ctx.scene.here.terrain) || '';
  const open = walkableCells(ctx).length;
  const nearest = foes[0];
  if (open >= OPEN_NEIGHBOURS) {
    // A step that passed no turn (it was refused) is not tried again from the same square in the same turn.
    const last = ctx.memory.groundStep;
    if (last && last.turn === ctx.turn && last.x === ctx.hero.x && last.y === ctx.hero.y && last.levelId === ctx.levelId) return null;
    const refuge = walkableCells(ctx)
      .filter((cell) => cell.terrain in NARROW && !cell.occupant && !(cell.hazards && cell.hazards.length))
      .filter((cell) => !(cell.terrain === 'openDoor' && DIAGONAL.test(cell.direction))) // nothing enters a door diagonally
      .filter((cell) => !ctx.adjacent.length || distance(cell, ctx.adjacent[0]) <= 1) // the one adjacent stays in reach
      .sort((a, b) => NARROW[a.terrain] - NARROW[b.terrain] || distance(b, nearest) - distance(a, nearest))[0];
    if (!refuge) return null;
    ctx.memory.groundStep = { turn: ctx.turn, x: ctx.hero.x, y: ctx.hero.y, levelId: ctx.levelId };
    return { tool: 'travel', args: { ...ctx.base, mode: 'step', target: { direction: refuge.direction } },
             why: `${foes.length} hostiles close (the ${nearest.appearance} nearest) and the hero in the open: `
               + `step ${refuge.direction} into the ${refuge.terrain} to meet them one at a time` };
  }
  if (ctx.adjacent.length || !(here in NARROW)) return null;
  const level = ctx.level;
  if ((level.holds || 0) >= HOLD_TURNS) return null;
  level.holds = (level.holds || 0) + 1;
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 1 },
           why: `${foes.length} hostiles close: hold the ${here} (${open} ways in) and let them come one at a time` };
}
