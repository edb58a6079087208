// gear.js - plain armour for an empty slot: wear a carried piece, pick one
// up from underfoot, walk to a [ close by. What is worn is the items'
// `equipmentSlots` (armour.js); which piece is plain is its name.

import { armourPattern, armourToWear, wearableSlot, wornSlots } from '../armour.js';

export function armourMove(ctx) {
  if (ctx.threatNear) return null;
  const { scene, self, memory, base, levelId, hero } = ctx;
  const piece = armourToWear(scene.inventory, self.role);
  if (piece && !memory.wearTried.has(piece.id)) {
    memory.wearTried.add(piece.id);
    return { tool: 'equipment', args: { ...base, action: 'wear', itemId: piece.id }, why: `wear ${piece.label}`,
             intent: { kind: 'wear', itemId: piece.id } };
  }
  const key = `${levelId}:${hero.x},${hero.y}:armour`;
  const worn = wornSlots(scene.inventory);
  const found = ((scene.here && scene.here.items) || []).find((item) => item.category === 'armor'
    && wearableSlot(item.label, self.role, worn));
  if (found && !memory.pickedAt.has(key)) {
    memory.pickedAt.add(key);
    return { tool: 'interact', args: { ...base, action: 'pickup' }, why: `${found.label} for an empty slot: pick it up`,
             intent: { kind: 'pickup', pattern: armourPattern(found.label) } };
  }
  const shown = (scene.objects || []).find((object) => object.mark === '[' && object.distance <= 6
    && !memory.armourChecks.has(`${levelId}:${object.x},${object.y}`));
  if (!shown) return null;
  memory.armourChecks.add(`${levelId}:${shown.x},${shown.y}`);
  return { tool: 'travel', args: { ...base, mode: 'to', to: { x: shown.x, y: shown.y }, maxActions: 20 },
           why: `see whether the [ at ${shown.x},${shown.y} is armour to wear`, leg: 'to' };
}
