// prayer.js - pray when in real trouble and a prayer is likely safe.
//
// NetHack's prayer timeout (pray.c) starts at 300, drops by one a turn, and
// a prayer in major trouble is answered once it is at most 200 (with Luck
// and alignment not negative): the first is safe from turn ~100. A
// successful prayer resets it to rnz(350): half the draws are under 350,
// but about 6% exceed 1200, so a beginner leaves 1000 turns between
// prayers. A prayer made too soon is not merely refused: pray.c's
// prayer_done adds rnz(250) to the timeout, takes 3 Luck and calls
// gods_upset (u.ugangr++), and while u.ugangr is set can_pray makes every
// later prayer "too naughty" (angrygods, never a fix) until a sacrifice
// appeases the god. So the memory forbids praying after the god's anger
// is read ("You feel that X is displeased.", beginner.js ANGRY_GOD), and
// the clock's job is to make that first too-soon prayer rare.
// A prayer that fixes hunger leaves ~900 turns of food to Fainting, but its
// meal lasts only ~850 turns to the next Weak: Weak with no food, it prays
// after 800 (timeout still over 200 about 1 in 12). Fainting with no food,
// a prayer 100 turns on is the only chance left: Fainting is helpless
// spells among monsters. (Waiting Weak and Fainting for the full gap, and
// praying after 100 only 120 turns into Fainting, was tried: heroes were
// killed fainted while waiting where this rule prays at Fainting's start;
// docs/DECISIONS.md, wave 6.)
// Dying (HP at most 5 or under 1/7) with a hostile within two squares, a
// prayer 300 turns on is answered two times in three (rnz(350) <= 500:
// half the draws are under 350, three quarters of the rest under 700),
// 500 on seven in eight: better odds than the fight. The timeout starts at
// 300 (u_init.c), so from turn 100 a first prayer in major trouble is safe.

import { DEADLY_CONDITIONS, WEAK } from './context.js';
import { quaffHealing } from './potions.js';

export const FIRST_PRAYER_TURN = 150;
export const PRAYER_GAP = 1000;
export const STARVING_PRAYER_GAP = 800;
export const FAINTING_PRAYER_GAP = 100;
export const DYING_PRAYER_GAP = 300;
const DYING_FIRST_PRAYER_TURN = 100;
const DYING_THREAT_DISTANCE = 2;

/** True when a prayer at `turn` is likely answered (the memory's last prayer and the god's mood). */
export function prayerLikelySafe(memory, turn, gap = PRAYER_GAP, first = FIRST_PRAYER_TURN) {
  const last = memory.lastPrayer;
  return !memory.prayerUnsafe && turn >= first && (last === null || turn - last >= gap);
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
  if (lowHp && ctx.nearest && ctx.nearest.distance <= DYING_THREAT_DISTANCE) {
    return { what: `${what} with a ${ctx.nearest.appearance || 'hostile'} close`, gap: DYING_PRAYER_GAP, first: DYING_FIRST_PRAYER_TURN };
  }
  const gap = !starving ? PRAYER_GAP : vitals.hunger === 'weak' ? STARVING_PRAYER_GAP : FAINTING_PRAYER_GAP;
  return { what, gap, first: FIRST_PRAYER_TURN };
}

export function prayInTrouble(ctx) {
  const found = trouble(ctx);
  if (!found || !prayerLikelySafe(ctx.memory, ctx.turn, found.gap, found.first)) return null;
  // A known healing potion beats a prayer the usual gap would not allow.
  if (!prayerLikelySafe(ctx.memory, ctx.turn) && quaffHealing(ctx)) return null;
  const last = ctx.memory.lastPrayer;
  const why = `in trouble (${found.what}) and the last prayer was ${last === null ? 'never' : `at turn ${last}`}: pray`;
  return { tool: 'interact', args: { ...ctx.base, action: 'pray' }, why, intent: { kind: 'pray', why } };
}
