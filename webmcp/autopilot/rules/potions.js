// potions.js - a potion the hero knows heals (its name says so: a Healer's
// or a Monk's starting ones, or one identified since), quaffed when HP is
// low and no prayer is likely safe. Unknown potions are never drunk.

import { prayerLikelySafe } from './prayer.js';

const HEALING = /potions? of (?:full |extra )?healing/;

export function quaffHealing(ctx) {
  const { vitals } = ctx;
  if (vitals.hp * 3 >= vitals.hpMax || prayerLikelySafe(ctx.memory, ctx.turn)) return null;
  const potion = (ctx.scene.inventory || []).find((item) => item.category === 'potion' && HEALING.test(item.label || '')
    && !/\bcursed\b/.test(item.label || ''));
  if (!potion) return null;
  return { tool: 'use', args: { ...ctx.base, action: 'drink', itemId: potion.id },
           why: `HP ${vitals.hp}/${vitals.hpMax} and no safe prayer: drink ${potion.label}`, intent: { kind: 'drink', itemId: potion.id } };
}
