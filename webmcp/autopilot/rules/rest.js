// rest.js - hurt or impaired with no threat near: rest (search, which also finds).

import { IMPAIRED } from './context.js';

export function restWhenHurt(ctx) {
  const { vitals } = ctx;
  const impaired = ctx.conditions.filter((name) => IMPAIRED.includes(name));
  if (ctx.threatNear || !(vitals.hp * 2 < vitals.hpMax || impaired.length)) return null;
  const why = impaired.length ? `${impaired.join(', ')}: wait it out` : `HP ${vitals.hp}/${vitals.hpMax}: rest`;
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 20 }, why };
}
