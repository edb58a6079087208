// armour.js - which found armour a careful beginner puts on: only kinds whose
// name (or fixed unidentified appearance) says they are plain armour, for a
// slot that is empty. Random appearances ("combat boots", "plumed helmet",
// "old gloves") may be levitation, fumbling or opposite alignment: never worn.

/** @type {Array<{slot: string, pattern: RegExp, roles?: RegExp}>} */
const KINDS = [
  { slot: 'helmet', pattern: /\b(orcish helm|iron skull cap|dwarvish iron helm|hard hat|elven leather helm|leather hat)\b/ },
  { slot: 'boots', pattern: /\b(low boots|walking shoes|high boots|jackboots|iron shoes|hard shoes)\b/ },
  { slot: 'cloak', pattern: /\b(leather cloak|orcish cloak|coarse mantelet|dwarvish cloak|hooded cloak)\b/ },
  // Body armour goes under a cloak, hampers a Monk's martial arts and a caster's spells.
  { slot: 'bodyArmor', pattern: /\b(leather armor|studded leather armor|ring mail|crude ring mail|scale mail|mithril-coat)\b/,
    roles: /^(?!Monk|Wizard|Healer|Priest)/ },
];
// Shop goods are not a beginner's to take.
const NOT_OURS = /for sale|unpaid|no charge/;

/** The slots the hero wears armour in now: the items' `equipmentSlots` (the
 *  driver's worn masks), never their labels.
 * @param {import('./frame').Item[] | null | undefined} inventory
 * @returns {Set<string>} */
export function wornSlots(inventory) {
  /** @type {Set<string>} */
  const slots = new Set();
  for (const item of inventory || []) {
    if (item.category === 'armor') for (const slot of item.equipmentSlots || []) slots.add(slot);
  }
  return slots;
}

/** True when the item is worn, wielded or readied in any slot.
 * @param {import('./frame').Item} item
 * @returns {boolean} */
export function inUse(item) {
  return Boolean(item.equipmentSlots && item.equipmentSlots.length);
}

/** The slot a found piece would fill for this hero, or null when it is not to be worn.
 * @param {string} label
 * @param {string | undefined} role
 * @param {Set<string>} worn the slots worn now (wornSlots)
 * @returns {string | null} */
export function wearableSlot(label, role, worn) {
  const text = String(label);
  if (NOT_OURS.test(text) || /\bcursed\b/.test(text)) return null;
  const kind = KINDS.find((entry) => entry.pattern.test(text));
  if (!kind || (kind.roles && !kind.roles.test(String(role))) || worn.has(kind.slot)) return null;
  if (kind.slot === 'bodyArmor' && worn.has('cloak')) return null; // it would have to come off first
  return kind.slot;
}

/** The pattern that picks this piece out of a pickup menu (its kind's name).
 * @param {string} label
 * @returns {RegExp | null} */
export function armourPattern(label) {
  const kind = KINDS.find((entry) => entry.pattern.test(String(label)));
  return kind ? kind.pattern : null;
}

/** A carried piece to put on now, or null.
 * @param {import('./frame').Item[] | null | undefined} inventory
 * @param {string | undefined} role
 * @returns {import('./frame').Item | null} */
export function armourToWear(inventory, role) {
  const worn = wornSlots(inventory);
  return (inventory || []).find((item) => item.category === 'armor' && !inUse(item)
    && wearableSlot(item.label, role, worn)) || null;
}
