// rest.js - hurt or impaired with no threat near: rest (search, which also finds).
// Hurt, it first writes Elbereth where it rests (when it can write there and is
// not on one already): a rest of a hundred turns at a third of HP is when a
// wandering rothe or soldier ant finds the hero, and Elbereth keeps most of
// them off (rules/refuge.js rests on it, and writes it afresh as it smudges).

import { ENGRAVABLE, IMPAIRED, WEAK, onOwnElbereth } from './context.js';

const REST_ELBERETHS = 6; // per level: written before a rest (a typo or a smudge each time can leave it powerless)

/** Before a rest: Elbereth under the hero, unless it is on one, cannot write here, or has written enough here. */
function elberethFirst(ctx) {
  const { memory, levelId, hero, vitals, level } = ctx;
  if (onOwnElbereth(ctx) || WEAK.includes(vitals.hunger) || !ENGRAVABLE.includes(ctx.scene.here && ctx.scene.here.terrain)) return null;
  if ((level.restElbereths || 0) >= REST_ELBERETHS) return null;
  level.restElbereths = (level.restElbereths || 0) + 1;
  memory.elbereth = { levelId, x: hero.x, y: hero.y, hp: vitals.hp, turn: ctx.turn };
  const why = `HP ${vitals.hp}/${vitals.hpMax}: write Elbereth before resting (a wanderer finds a long rest)`;
  return { tool: 'use', args: { ...ctx.base, action: 'engrave', hands: true, text: 'Elbereth' }, why,
           intent: { kind: 'engrave', text: 'Elbereth' } };
}

export function restWhenHurt(ctx) {
  const { vitals } = ctx;
  const impaired = ctx.conditions.filter((name) => IMPAIRED.includes(name));
  if (ctx.threatNear || !(vitals.hp * 2 < vitals.hpMax || impaired.length)) return null;
  if (!impaired.length) {
    const write = elberethFirst(ctx);
    if (write) return write;
  }
  const why = impaired.length ? `${impaired.join(', ')}: wait it out` : `HP ${vitals.hp}/${vitals.hpMax}: rest`;
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 20 }, why };
}
