// refuge.js - ways out of a fight a hurt hero may lose: back up the
// Mines' stairs, Elbereth in the dust (rested on until HP is back), or a
// step away from a threat close by.

import { ENGRAVABLE, IMPAIRED, WEAK, distance, onOwnElbereth } from './context.js';

const REFUGE_DISTANCE = 20; // in the Mines, hurt: stairs up this close are the way out
// Elbereth scares most early monsters, but not @ (humans, elves), minotaurs or shopkeepers.
const IGNORES_ELBERETH = /^@$|minotaur|shopkeeper|guard|priest/;
const ELBERETH_REFRESH_TURNS = 25; // turns rested on it before it is written again
const ELBERETH_TRIES = 3; // per level: a typo in the dust (1 in 25 a letter) leaves it powerless

/** A creature Elbereth scares (monmove.c onscary: not humans and elves, minotaurs, shopkeepers, guards, priests). */
export function heedsElbereth(entity) {
  return !IGNORES_ELBERETH.test(entity.mark === '@' ? '@' : (entity.appearance || ''));
}

/** On the Elbereth it wrote, done resting, with a hostile adjacent that heeds it: attacking from there (melee, a
 *  missile, a spell) would be "like a hypocrite" (mon.c setmangry: alignment -5 and the engraving gone), and
 *  alignment below 0 makes every prayer fail (pray.c: "too naughty"). Step off it first, onto a free neighbour. */
export function offElbereth(ctx) {
  const { memory, hero } = ctx;
  if (!onOwnElbereth(ctx)) return null;
  const heeding = ctx.adjacent.filter(heedsElbereth);
  if (!heeding.length) return null;
  const cell = (ctx.scene.nearby || []).find((entry) => entry.direction && entry.walkable && !entry.occupant && !entry.blocked
    && entry.terrain !== 'closedDoor' && !(entry.hazards && entry.hazards.length)
    && !(entry.x !== hero.x && entry.y !== hero.y && (entry.terrain === 'openDoor' || (ctx.scene.here && ctx.scene.here.terrain === 'openDoor'))));
  if (!cell) return null;
  memory.elbereth = null;
  return { tool: 'travel', args: { ...ctx.base, mode: 'step', target: { direction: cell.direction } },
           why: `the ${heeding[0].appearance || 'creature'} heeds the Elbereth underfoot: step ${cell.direction} off it before fighting (no hypocrite)` };
}

/** The Gnomish Mines come in crowds, with arrows and bolts from afar that
 *  Elbereth does not stop: hurt there with a hostile in sight, back up the
 *  stairs (and rest above before coming down again). */
export function stairsRefuge(ctx) {
  const { vitals } = ctx;
  if (!ctx.nearest || vitals.hp * 3 >= vitals.hpMax * 2 || !/Gnomish Mines/.test(ctx.dungeon)) return null;
  const up = ctx.scene.features.find((feature) => feature.kind === 'stairsUp' && feature.distance <= REFUGE_DISTANCE);
  if (!up) return null;
  const why = `HP ${vitals.hp}/${vitals.hpMax} among the Mines' crowds`;
  if (up.distance === 0) return { tool: 'travel', args: { ...ctx.base, mode: 'climb', direction: 'up' }, why: `${why}: up the stairs to rest` };
  if (ctx.fightable.length || ctx.level.refugeMisses >= 2) return null; // no route there (a crowd in the way)
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: up.x, y: up.y }, maxActions: 20 },
           why: `${why}: back to the stairs up at ${up.x},${up.y}`, leg: 'refuge' };
}

/** Low HP, a threat near and no safe prayer: write Elbereth and rest on it.
 *  Resting stops (and the hero fights) once HP falls on the square, i.e.
 *  the engraving is misspelt or the attacker ignores it. */
export function elberethRefuge(ctx) {
  const { vitals, memory, levelId, hero, scene } = ctx;
  const mark = memory.elbereth;
  const onIt = mark && mark.levelId === levelId && mark.x === hero.x && mark.y === hero.y;
  const hurt = vitals.hp * 5 < vitals.hpMax * 2 || vitals.hp <= 5;
  const near = ctx.hostiles.filter((entity) => entity.distance <= 3);
  if (vitals.hp * 10 >= vitals.hpMax * 7 || WEAK.includes(vitals.hunger)) return null;
  const heeded = near.every(heedsElbereth);
  if (!heeded) return null;
  if (onIt) {
    if (vitals.hp < mark.hp) { memory.elbereth = null; return null; } // it did not keep them off
    mark.hp = vitals.hp;
    if (mark.turn === undefined) mark.turn = ctx.turn;
    // A hostile that heeds it beside the hero and HP held: it is whole now (a fresh one is, 72% of the time).
    if (ctx.adjacent.some(heedsElbereth)) mark.turn = ctx.turn;
    // Dust under the hero smudges by itself (allmain.c: 1 to 3 letters, about one turn in 90), so a long rest ends
    // on a broken Elbereth the next monster ignores: written afresh every so often, while nothing is adjacent.
    if (!ctx.adjacent.length && ctx.turn - mark.turn >= ELBERETH_REFRESH_TURNS && ENGRAVABLE.includes(scene.here && scene.here.terrain)) {
      mark.turn = ctx.turn;
      const why = `HP ${vitals.hp}/${vitals.hpMax}: resting on Elbereth, write it afresh (dust smudges)`;
      return { tool: 'use', args: { ...ctx.base, action: 'engrave', hands: true, text: 'Elbereth' }, why,
               intent: { kind: 'engrave', text: 'Elbereth' } };
    }
    // Resting here beats any walk (to a corpse, say) until HP is back to 70%.
    return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: near.length ? 5 : 20 },
             why: `HP ${vitals.hp}/${vitals.hpMax}: rest on Elbereth${near.length ? ` while the ${near[0].appearance || 'creature'} keeps off` : ''}` };
  }
  if (!near.length || !hurt || !ENGRAVABLE.includes(scene.here && scene.here.terrain)) return null;
  if (IMPAIRED.some((name) => ctx.conditions.includes(name))) return null;
  const tries = memory.elberethTries.get(levelId) || 0;
  if (tries >= ELBERETH_TRIES) return null;
  memory.elberethTries.set(levelId, tries + 1);
  memory.elbereth = { levelId, x: hero.x, y: hero.y, hp: vitals.hp, turn: ctx.turn };
  const why = `HP ${vitals.hp}/${vitals.hpMax} with a ${near[0].appearance || 'creature'} ${ctx.adjacent.length ? 'adjacent' : 'near'} and no safe prayer: write Elbereth`;
  return { tool: 'use', args: { ...ctx.base, action: 'engrave', hands: true, text: 'Elbereth' }, why,
           intent: { kind: 'engrave', text: 'Elbereth' } };
}

/** Below a third of HP with a hostile within 3 squares (none adjacent to fight): the walkable empty neighbour farthest from it. */
export function stepAway(ctx) {
  const { nearest, vitals } = ctx;
  if (!nearest || nearest.distance > 3 || vitals.hp * 3 >= vitals.hpMax) return null;
  let best = null;
  for (const cell of ctx.scene.nearby || []) {
    if (!cell.walkable || cell.occupant || cell.terrain === 'closedDoor') continue;
    const gap = distance(cell, nearest);
    if (gap > nearest.distance && (!best || gap > best.gap)) best = { direction: cell.direction, gap };
  }
  if (!best) return null;
  return { tool: 'travel', args: { ...ctx.base, mode: 'step', target: { direction: best.direction } },
           why: `HP ${vitals.hp}/${vitals.hpMax} and a ${nearest.appearance} is near: step away ${best.direction}` };
}
