// weapon.js - the weapon back in hand: when nothing is wielded any more but
// the weapon last seen wielded (`equipmentSlots` "weapon"; beginner.js
// remembers its id) is still in the pack - slippery fingers, a quiver or
// throw that took it, a polymorph undone - it is wielded again. Monks fight
// bare-handed and are never given one. Once per WIELD_AGAIN_TURNS (a cursed
// or otherwise refused wield is not retried every call).

const WIELD_AGAIN_TURNS = 100;

export function wieldAgain(ctx) {
  const { memory, scene, turn } = ctx;
  const id = memory.lastWielded;
  if (!id || ctx.self.role === 'Monk') return null;
  const inventory = scene.inventory || [];
  if (inventory.some((item) => (item.equipmentSlots || []).includes('weapon'))) return null;
  const weapon = inventory.find((item) => item.id === id);
  if (!weapon || (memory.wieldAgainAt ?? -Infinity) > turn - WIELD_AGAIN_TURNS) return null;
  memory.wieldAgainAt = turn;
  return { tool: 'equipment', args: { ...ctx.base, action: 'wield', itemId: weapon.id },
           why: `nothing in hand: wield ${weapon.label} again`, intent: { kind: 'wield', itemId: weapon.id } };
}
