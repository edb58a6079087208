// food.js - what a careful beginner eats: food from the pack first, and
// only corpses it is sure of (freshly killed, of a kind that is never
// poisonous, acidic, petrifying, hallucinogenic or cannibalism for humans).

// Corpses that are safe for every starting race when fresh (no dwarves or
// gnomes: that is cannibalism for a dwarf or gnome hero; no bats: stunning).
const SAFE_CORPSES = ['newt', 'jackal', 'coyote', 'fox', 'sewer rat', 'giant rat', 'grid bug', 'gecko',
  'iguana', 'rothe', 'lichen', 'hobbit', 'hill orc', 'goblin', 'hobgoblin', 'cave spider', 'centipede',
  'acid blob'];

// Pack food in the order a beginner eats it: light, never rotting, no tools needed.
const PACK_FOOD = [/food ration/, /cram ration/, /lembas/, /[kc]-ration/, /fortune cookie/, /apple/, /orange/,
  /banana/, /melon/, /carrot/, /pear/, /kelp/, /cream pie/, /pancake/, /candy bar/, /tortilla/, /slime mold/];

/** True when text (e.g. "a newt corpse") names a corpse that is safe to eat. */
export function safeCorpse(text) {
  const name = String(text).toLowerCase().replace(/^(an?|the|\d+)\s+/, '').replace(/\s+corpses?$/, '');
  return SAFE_CORPSES.includes(name);
}

/** The carried food item to eat now, or null: never corpses, tins or eggs. */
export function packFood(inventory) {
  const food = (inventory || []).filter((item) => item.category === 'food' && !/corpse|tin\b|egg/.test(item.label));
  for (const pattern of PACK_FOOD) {
    const item = food.find((entry) => pattern.test(entry.label));
    if (item) return item;
  }
  return null;
}

/** Labels worth picking up as food. */
export const FOOD_TO_PICK = /food ration|cram ration|lembas|[kc]-ration|fortune cookie|apple|orange|banana|melon|carrot/i;
