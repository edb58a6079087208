// eating.js - keeping fed: pack food when hungry, fresh safe corpses
// whenever not satiated (the kills are the frames' `creatureDied` events,
// with their squares), a % close by looked at when the pack has no food,
// food underfoot picked up.

import { FOOD_TO_PICK, NEVER_ROTS, corpseName, corpseWelcome, safeCorpse } from '../food.js';
import { distance } from './context.js';

export const CORPSE_FRESH_TURNS = 30; // eat.c: rotted = age / (10 + rn2(20)), harmless while <= 3: any age under 40
const SHOP_GOODS = /for sale|unpaid|no charge/; // a shopkeeper's, not a beginner's

/** Any meal may be rotten (1 in 7 for a corpse; pack food past 30 turns old)
 *  and leave the hero helpless: eat only with no hostile in sight, unless Weak. */
export function eatPackFood(ctx) {
  const food = ctx.packFood;
  if (!ctx.hungry || !(ctx.calm || ctx.weak) || !food) return null;
  return { tool: 'use', args: { ...ctx.base, action: 'eat', itemId: food.id }, why: `${ctx.vitals.hunger}: eat ${food.label}`,
           intent: { kind: 'eat', itemId: food.id } };
}

/** A fresh safe corpse underfoot is eaten; one near (a kill seen within 3 squares) is walked onto. */
export function eatFreshCorpse(ctx) {
  // A lycanthrope eats no corpse (its kind's are cannibalism), lichens aside: pack food until a prayer cures it.
  if (ctx.vitals.hunger === 'satiated' || !(ctx.calm || ctx.weak)) return null;
  const corpse = freshCorpseHere(ctx);
  if (corpse) {
    return { tool: 'use', args: { ...ctx.base, action: 'eat' }, why: `eat the fresh ${corpseName(corpse)} corpse underfoot`,
             intent: { kind: 'eat', corpse } };
  }
  const kill = freshKillNear(ctx);
  if (!kill) return null;
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: kill.at, maxActions: 6 },
           why: `walk onto the fresh ${kill.name} corpse at ${kill.at.x},${kill.at.y} to eat it`, leg: 'to' };
}

/** The label of a fresh safe corpse underfoot not tried before, or null. Lichens
 *  and lizards never rot; others only when a creature of that kind died lately
 *  on this very square (an older corpse of the same kind may lie nearby). */
export function freshCorpseHere(ctx) {
  const { self, memory, levelId, turn, hero } = ctx;
  const where = `${levelId}:${hero.x},${hero.y}`;
  for (const item of (ctx.scene.here && ctx.scene.here.items) || []) {
    const label = String(item.label || item.name || item);
    const corpse = /^(?:an? |the )?(?:partly eaten )?(.+?) corpse$/.exec(label);
    if (!corpse || !safeCorpse(corpse[1], self.race) || (memory.lycanthrope && corpse[1] !== 'lichen') || !corpseWelcome(corpse[1], self.role, self.vitals.hunger)
        || memory.eatTried.has(`${where}:${label}`)) continue;
    const fresh = NEVER_ROTS.includes(corpse[1]) || memory.kills.some((kill) => kill.name === corpse[1]
      && kill.levelId === levelId && turn - kill.turn <= CORPSE_FRESH_TURNS && kill.at.x === hero.x && kill.at.y === hero.y);
    if (fresh) {
      memory.eatTried.add(`${where}:${label}`); // one try: a refused or interrupted meal is not retried
      return label;
    }
  }
  return null;
}

/** A fresh safe kill within 3 squares (not underfoot) where a % shows, or null; each is walked to at most twice. */
export function freshKillNear(ctx) {
  const { scene, self, hero } = ctx;
  // Only where a % shows: small monsters leave a corpse only half the time.
  const shown = (at) => (scene.objects || []).some((object) => object.mark === '%' && object.x === at.x && object.y === at.y);
  const kill = ctx.memory.kills.find((entry) => (entry.walks || 0) < 2 && shown(entry.at)
    && (!ctx.memory.lycanthrope || entry.name === 'lichen')
    && entry.levelId === ctx.levelId && ctx.turn - entry.turn <= CORPSE_FRESH_TURNS
    && safeCorpse(entry.name, self.race) && corpseWelcome(entry.name, self.role, self.vitals.hunger)
    && distance(entry.at, hero) <= 3 && (entry.at.x !== hero.x || entry.at.y !== hero.y));
  if (kill) kill.walks = (kill.walks || 0) + 1;
  return kill || null;
}

/** With no food in the pack, a % close by may be a ration (hungry: any % on the level). */
export function checkFood(ctx) {
  if (!(ctx.hungry || !ctx.packFood) || ctx.threatNear) return null;
  const within = ctx.hungry ? Infinity : 8;
  const checks = ctx.memory.foodChecks;
  const food = (ctx.scene.objects || []).find((object) => object.mark === '%' && object.distance <= within
    && (checks.get(`${ctx.levelId}:${object.x},${object.y}`) || 0) < 2 && !(object.x === ctx.hero.x && object.y === ctx.hero.y));
  if (!food) return null;
  const key = `${ctx.levelId}:${food.x},${food.y}`;
  checks.set(key, (checks.get(key) || 0) + 1);
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: food.x, y: food.y }, maxActions: 60 },
           why: `${ctx.hungry ? ctx.vitals.hunger : 'no food in the pack'}: see whether the % at ${food.x},${food.y} is food`, leg: 'to' };
}

export function pickUpFood(ctx) {
  const key = `${ctx.levelId}:${ctx.hero.x},${ctx.hero.y}`;
  const items = (ctx.scene.here && ctx.scene.here.items) || [];
  if (ctx.threatNear || ctx.memory.pickedAt.has(key)
      || !items.some((item) => FOOD_TO_PICK.test(item.label || '') && !SHOP_GOODS.test(item.label || ''))) return null;
  ctx.memory.pickedAt.add(key);
  return { tool: 'interact', args: { ...ctx.base, action: 'pickup' }, why: 'food here: pick it up',
           intent: { kind: 'pickup', pattern: FOOD_TO_PICK } };
}
