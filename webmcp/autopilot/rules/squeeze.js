// squeeze.js - a diagonal between two rock corners that NetHack refused
// because the pack weighs more than 600 (the leg's why `squeezeTooHeavy`):
// often the only way into a room or on along a corridor. A Caveman starts
// at ~650 with his two dozen rocks, so without this he can never take such a
// step. What goes first is what the beginner never uses: a stone stack it
// does not fire (rocks, gems), then armour it does not wear; never what is
// wielded, worn or quivered, never a loadstone (it cannot be dropped).
// The drop is the whole stack; the next leg tries the same step again.

import { inUse } from '../armour.js';

const label = (/** @type {any} */ item) => String((item && item.label) || '');

/** What can go to lighten the pack, heaviest-looking first: stone stacks by size, then unworn armour. */
export function ballast(inventory) {
  const free = (inventory || []).filter((item) => !inUse(item) && !/loadstone/.test(label(item)));
  const stones = free.filter((item) => item.category === 'gem').sort((a, b) => (b.quantity || 1) - (a.quantity || 1));
  const armour = free.filter((item) => item.category === 'armor');
  return [...stones, ...armour];
}

export function lightenToSqueeze(ctx) {
  const result = ctx.frame.result;
  if (!result || result.stopReason !== 'blocked' || result.why !== 'squeezeTooHeavy' || ctx.threatNear) return null;
  const item = ballast(ctx.scene.inventory)[0];
  if (!item) return null;
  return { tool: 'use', args: { ...ctx.base, action: 'drop', itemId: item.id },
           why: `too heavy to squeeze past the corners: drop ${label(item)}` };
}
