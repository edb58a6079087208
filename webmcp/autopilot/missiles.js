// missiles.js - what a beginner throws at a creature it must never touch
// (a floating eye's gaze paralyses whoever hits it in melee) when that
// creature closes the only way on: the quiver first, then a weapon made
// for throwing or a stone, else any spare weapon. Thrown things land
// beyond the target; the hero walks on.

import { inUse } from './armour.js';

const THROWABLE = /dagger|knife|spear|javelin|dart|shuriken|axe|flint|rock|stone|sling bullet|arrow|ya\b|bolt|boomerang/;

/** The call that throws at `direction`, or null when nothing can be spared.
 * @param {import('./frame').Item[] | null | undefined} inventory
 * @param {string} direction
 * @param {Record<string, any>} base the arguments every call carries (sessionId, viewId)
 * @returns {import('./frame').Call | null} */
export function missileAt(inventory, direction, base) {
  const items = inventory || [];
  if (items.some((item) => (item.equipmentSlots || []).includes('quiver'))) {
    return { tool: 'use', args: { ...base, action: 'fire', direction } };
  }
  const spareOf = (/** @type {(label: string) => boolean} */ fits) => items.find((item) => ['weapon', 'gem', 'rock'].includes(item.category)
    && !inUse(item) && !/cursed|loadstone/.test(item.label || '') && fits(item.label || ''));
  // Made for throwing first; else any spare weapon (a short sword thrown still hits).
  const spare = spareOf((label) => THROWABLE.test(label)) || spareOf(() => true);
  if (!spare) return null;
  return { tool: 'use', args: { ...base, action: 'throw', itemId: spare.id, direction } };
}
