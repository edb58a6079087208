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

/** The slots the hero wears something in now.
 * @param {import('./frame').Item[] | null | undefined} inventory
 * @returns {Set<string>} */
export function wornSlots(inventory) {
  /** @type {Set<string>} */
  const slots = new Set();
  for (const item of inventory || []) {
    if (item.category !== 'armor' || !/\(being worn\)/.test(item.label)) continue;
    for (const slot of item.equipmentSlots || []) slots.add(slot);
    // Slots may be named by kind; the label settles what the piece is.
    for (const kind of KINDS) if (kind.pattern.test(item.label)) slots.add(kind.slot);
    if (/\bcloak\b|\brobe\b|mantelet|apron|cape|pall|opera|ornamental/.test(item.label)) slots.add('cloak');
    if (/armor|mail|jacket|coat/.test(item.label)) slots.add('bodyArmor');
  }
  return slots;
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
  return (inventory || []).find((item) => item.category === 'armor' && !/\(being worn\)/.test(item.label)
    && wearableSlot(item.label, role, worn)) || null;
}
