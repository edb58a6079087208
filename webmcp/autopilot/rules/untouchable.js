// untouchable.js - a creature it must not touch where the hero has nowhere
// else to go (the level explored, the way down blocked, or searching):
// throw at it; with nothing to throw, a mold is fought with HP above its
// passive's worst, a floating eye only by a hero starving behind it. A gas spore explodes for up to 24 HP on its neighbours when it
// dies: it is fought only with HP to spare, shot at from two squares or more,
// and next to a weaker hero kept off with Elbereth until it drifts away.

import { missileAt } from '../missiles.js';
import { ENGRAVABLE, NEVER_MELEE, directionOf, inLine } from './context.js';
import { waysDown } from './ways.js';

const UNTOUCHABLE_TRIES = 30; // per level: throws, Elbereths and waits at a creature in the way
const SPORE_BLAST = 24; // a gas spore's explosion: 4d6

const spore = (entity) => /gas spore/.test(entity.appearance || '');

// A mold never moves: one on the only way on (say, the corridor to the stairs) walls the level off for good when
// nothing can be thrown at it. Its passive hurts only the one who attacks it in melee (uhitm.c passive(): up to (level+1) dice
// of its passive attack each hit), so with HP well above that most it is fought.
const MOLD_PASSIVE_MOST = { 'yellow mold': 4, 'red mold': 16, 'brown mold': 24, 'green mold': 24 };
const MOLD_MARGIN = 6;

/** Melee a mold in the way when the hero's HP outlasts its worst passive hit by a margin (never a lichen's kin:
 *  any other F is no mold this knows). */
function fightMold(ctx, entity) {
  const most = MOLD_PASSIVE_MOST[entity.appearance || ''];
  if (most === undefined || ctx.vitals.hp <= most + MOLD_MARGIN) return null;
  // Only when it may be what walls the way on: no way down known, or the last walk to one found no route.
  if (waysDown(ctx).length && ctx.level.calls >= ctx.level.descendBlockedUntil) return null;
  ctx.level.untouchableTries += 1;
  return { tool: 'interact', args: { ...ctx.base, action: 'attack', target: { direction: entity.direction } },
           why: `the ${entity.appearance} to the ${entity.direction} is in the way, nothing to throw, and HP ${ctx.vitals.hp} `
             + `outlasts its passive (${most} at most): fight it` };
}

// A floating eye has speed 1: one on the only way on hardly ever moves off it. Hitting it and not killing it
// paralyses a hero who can see it for d(3,70) turns at most 127 (uhitm.c passive(), AD_PLYS), deadly with
// anything else about but survivable alone. Starving behind it is not (seed 8005: a Priest with nothing to
// throw searched 800 turns beside one). So, as a last resort, once Hungry with no food in the pack, alone
// with it and with HP to spare, it is fought. (Fought after 15 calls beside one whatever the hunger, seeds 12
// and 9011 were killed frozen by a monster that came by: with food, the eye is waited out.)
function fightEye(ctx, entity) {
  if (!/floating eye/.test(entity.appearance || '')) return null;
  if (waysDown(ctx).length && ctx.level.calls >= ctx.level.descendBlockedUntil) return null;
  const alone = ctx.hostiles.length === 1;
  if (!ctx.hungry || ctx.packFood || !alone || ctx.vitals.hp * 3 < ctx.vitals.hpMax * 2) return null;
  return { tool: 'interact', args: { ...ctx.base, action: 'attack', target: { direction: entity.direction } },
           why: `the floating eye to the ${entity.direction} holds the only way on, nothing to throw, ${ctx.vitals.hunger} `
             + 'with no food, no other hostile in sight: fight it (a paralysis alone beats starving here)' };
}

export function untouchableInTheWay(ctx) {
  const { scene, level, vitals, base } = ctx;
  const stuck = level.explored || level.calls < level.descendBlockedUntil || level.searches > 0;
  if (!stuck || level.untouchableTries >= UNTOUCHABLE_TRIES) return null;
  const throwAt = (entity, direction) => {
    const missile = missileAt(scene.inventory, direction, base);
    if (!missile) return null;
    level.untouchableTries += 1;
    return { ...missile, why: `the ${entity.appearance} to the ${direction} is in the way and must not be touched: `
      + `${missile.args.action} at it` };
  };
  const eye = ctx.adjacent.find((entity) => NEVER_MELEE.test(entity.appearance || '') && !spore(entity));
  if (eye) {
    const shot = throwAt(eye, eye.direction);
    if (shot) return shot;
    const fight = fightMold(ctx, eye) || fightEye(ctx, eye);
    if (fight) return fight;
  }
  // Stepped back from a spore two squares in line: in a dark corridor it is
  // out of sight now, but it was there a turn ago: shoot where it was.
  const backed = level.sporeBehind;
  level.sporeBehind = null;
  if (backed && ctx.turn - backed.turn <= 2 && !ctx.hostiles.some(spore)) {
    const shot = throwAt({ appearance: 'gas spore' }, backed.direction);
    if (shot) return { ...shot, why: `${shot.why} (out of sight where it was)` };
  }
  const near = ctx.adjacent.find(spore);
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
      level.sporeBehind = { turn: ctx.turn, direction: directionOf(near.x - back.x, near.y - back.y) };
      return { tool: 'travel', args: { ...base, mode: 'step', target: { direction: back.direction } },
               why: `the gas spore to the ${near.direction} is in the way and its blast could kill: step back ${back.direction} to shoot it` };
    }
  }
  if (near) {
    const at = ctx.hero;
    const mark = ctx.memory.elbereth;
    const onIt = mark && mark.levelId === ctx.levelId && mark.x === at.x && mark.y === at.y;
    level.untouchableTries += 1;
    if (!onIt && ENGRAVABLE.includes(scene.here && scene.here.terrain)) {
      ctx.memory.elbereth = { levelId: ctx.levelId, x: at.x, y: at.y, hp: vitals.hp };
      return { tool: 'use', args: { ...base, action: 'engrave', hands: true, text: 'Elbereth' },
               why: 'a gas spore is in the way and its blast could kill: write Elbereth so it drifts off',
               intent: { kind: 'engrave', text: 'Elbereth' } };
    }
    return { tool: 'interact', args: { ...base, action: 'search', turns: 5 }, why: 'wait for the gas spore to drift off' };
  }
  for (const entity of ctx.hostiles.filter(spore)) {
    const dx = entity.x - ctx.hero.x;
    const dy = entity.y - ctx.hero.y;
    const far = Math.max(Math.abs(dx), Math.abs(dy));
    if (far < 2 || far > 5 || !(dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy))) continue;
    const shot = throwAt(entity, directionOf(dx, dy));
    if (shot) return shot;
  }
  return null;
}
