// prayer.js - pray when in real trouble and a prayer is likely safe.
//
// NetHack's prayer timeout (pray.c) starts at 300, drops by one a turn, and
// a prayer in major trouble is answered once it is at most 200: the first
// is safe from turn ~100. A successful prayer resets it to rnz(350): half
// the draws are under 350, but about 6% exceed 1200, so a beginner leaves
// 1000 turns between prayers. A prayer answered too soon makes the god
// angry, and every later one fails: the memory then forbids praying.
// A prayer that fixes hunger leaves ~900 turns of food to Fainting, but its
// meal lasts only ~850 turns to the next Weak: Weak with no food, it prays
// after 800 (timeout still over 200 about 1 in 10). Fainting with no food,
// a prayer 100 turns on is the only chance left.

import { DEADLY_CONDITIONS, WEAK } from './context.js';

export const FIRST_PRAYER_TURN = 150;
export const PRAYER_GAP = 1000;
const STARVING_PRAYER_GAP = 800;
const FAINTING_PRAYER_GAP = 100;

/** True when a prayer at `turn` is likely answered (the memory's last prayer and the god's mood). */
export function prayerLikelySafe(memory, turn, gap = PRAYER_GAP) {
  const last = memory.lastPrayer;
  return !memory.prayerUnsafe && turn >= FIRST_PRAYER_TURN && (last === null || turn - last >= gap);
}

/** What troubles the hero enough to pray, or null. */
export function trouble(ctx) {
  const { vitals } = ctx;
  const lowHp = vitals.hp <= 5 || vitals.hp * 7 <= vitals.hpMax;
  const starving = WEAK.includes(vitals.hunger) && !ctx.packFood;
  const deadly = ctx.conditions.filter((name) => DEADLY_CONDITIONS.includes(name));
  // (Hungry alone is minor trouble: with Luck 0 a god fixes only major trouble.)
  const what = lowHp ? `HP ${vitals.hp}/${vitals.hpMax}` : starving ? `hunger ${vitals.hunger}`
    : deadly.length ? deadly.join(', ') : ctx.memory.lycanthrope ? 'lycanthropy' : '';
  if (!what) return null;
  const gap = !starving ? PRAYER_GAP : vitals.hunger === 'weak' ? STARVING_PRAYER_GAP : FAINTING_PRAYER_GAP;
  return { what, gap };
}

export function prayInTrouble(ctx) {
  const found = trouble(ctx);
  if (!found || !prayerLikelySafe(ctx.memory, ctx.turn, found.gap)) return null;
  const last = ctx.memory.lastPrayer;
  const why = `in trouble (${found.what}) and the last prayer was ${last === null ? 'never' : `at turn ${last}`}: pray`;
  return { tool: 'interact', args: { ...ctx.base, action: 'pray' }, why, intent: { kind: 'pray', why } };
}
