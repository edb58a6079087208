// markers.js - the moves worth a mark on the scrubber (pure): level changes,
// prayers, kills, big HP drops, near-deaths and decisions, from the calls'
// facts (their receipts: turn, Dlvl, HP, event types) and the moves' standing questions.

/** @typedef {{move: number, kind: 'level' | 'prayer' | 'kill' | 'hpDrop' | 'nearDeath' | 'decision', label: string}} Marker */

/** A drop of at least this share of the maximum HP in one call is a big one. */
export const BIG_DROP = 0.25;
/** At or below this share of the maximum HP (or a life saved) is a near-death. */
export const NEAR_DEATH = 0.2;

/** @param {number | null | undefined} value */
const known = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * @param {import('./source.js').TimelineCall[]} calls in order
 * @param {import('./source.js').TimelineMove[]} moves in order
 * @returns {Marker[]} sorted by move
 */
export function markers(calls, moves) {
  /** @type {Marker[]} */
  const found = [];
  /** @type {import('./source.js').TimelineCall | null} */
  let before = null;
  for (const call of calls) {
    const at = call.last;
    const events = call.events || [];
    if (before && known(before.depth) && known(call.depth) && before.depth !== call.depth) {
      found.push({ move: at, kind: 'level', label: `Dlvl ${before.depth} → ${call.depth}` });
    }
    if (events.includes('prayed')) found.push({ move: at, kind: 'prayer', label: 'prayed' });
    if (events.includes('creatureDied')) found.push({ move: at, kind: 'kill', label: 'a creature died' });
    const hp = call.hp ?? NaN;
    const max = call.hpMax ?? NaN;
    const hpBefore = before?.hp ?? NaN;
    const maxBefore = before?.hpMax ?? NaN;
    if (known(hp) && known(max) && max > 0) {
      if (known(hpBefore) && hpBefore - hp >= BIG_DROP * max) {
        found.push({ move: at, kind: 'hpDrop', label: `HP ${hpBefore} → ${hp}` });
      }
      const near = hp > 0 && hp <= NEAR_DEATH * max;
      const wasNear = known(hpBefore) && known(maxBefore) && hpBefore <= NEAR_DEATH * maxBefore;
      if ((near && !wasNear) || events.includes('lifeSaved')) {
        found.push({ move: at, kind: 'nearDeath', label: `HP ${hp}/${max}` });
      }
    }
    before = call;
  }
  let asking = false;
  for (const move of moves) {
    if (move.decision && !asking) found.push({ move: move.move, kind: 'decision', label: `question: ${move.decision}` });
    asking = Boolean(move.decision);
  }
  return found.sort((a, b) => a.move - b.move);
}
