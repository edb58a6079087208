// food.js - what a careful beginner eats: food from the pack first, and
// only corpses it is sure of (freshly killed, of a kind that is never
// poisonous, acidic, petrifying, hallucinogenic, stunning, aggravating or
// cannibalism for the hero's race).

// Corpses safe for every starting race when fresh (monst.c: no M1_POIS,
// M1_ACID or lycanthropes; no bats: stunning; no domestic dogs or cats:
// aggravate monster; no nymphs, leprechauns or mimics: teleportitis or mimicry).
const SAFE_CORPSES = ['newt', 'jackal', 'coyote', 'fox', 'dingo', 'wolf', 'warg', 'sewer rat', 'giant rat', 'grid bug',
  'gecko', 'iguana', 'lizard', 'baby crocodile', 'crocodile', 'garter snake', 'rothe', 'lichen', 'hobbit', 'goblin',
  'hobgoblin', 'hill orc', 'Mordor orc', 'Uruk-hai', 'orc shaman', 'bugbear', 'giant ant', 'cave spider', 'centipede',
  'pony', 'horse', 'jaguar', 'lynx', 'monkey', 'ape', 'owlbear', 'yeti', 'rock piercer', 'iron piercer',
  'floating eye', 'hill giant', 'red naga hatchling', 'golden naga hatchling', 'guardian naga hatchling',
  'winter wolf cub', 'fire ant', 'imp', 'rock mole', 'woodchuck', 'shrieker', 'gray unicorn', 'white unicorn',
  'black unicorn'].map((name) => name.toLowerCase());
// Safe unless the hero is of the same race (cannibalism angers the god).
/** @type {Record<string, string[]>} */
const RACE_CORPSES = { gnome: ['gnome', 'gnome lord', 'gnomish wizard', 'gnome king'],
                       dwarf: ['dwarf', 'dwarf lord', 'dwarf king'] };
// Never rot: safe however long they have lain.
export const NEVER_ROTS = ['lichen', 'lizard'];
// A Monk feels guilty (alignment -1) for every meat meal: only when hunger insists.
const VEGAN = ['lichen'];

// Pack food in the order a beginner eats it: light, never rotting, no tools needed. Tripe comes
// last: an orc starts with tripe rations in place of cram rations (u_init.c inv_subs: an orcish
// Ranger's four) and eats it freely, as a Caveman does; anyone else may vomit it up (eat.c
// "Yak - dog food!"), which still beats starving.
const PACK_FOOD = [/food ration/, /cram ration/, /lembas/, /[kc]-ration/, /fortune cookie/, /apple/, /orange/,
  /banana/, /melon/, /carrot/, /pear/, /kelp/, /cream pie/, /pancake/, /candy bar/, /tortilla/, /slime mold/,
  /clove of garlic/, /sprig of wolfsbane/, /meatball/, /meat stick/, /huge chunk of meat/, /lump of royal jelly/,
  /tripe ration/];

/** The monster name in text such as "a newt corpse" or "2 jackal corpses".
 * @param {string} text
 * @returns {string} */
export function corpseName(text) {
  return String(text).toLowerCase().replace(/^(an?|the|\d+)\s+/, '').replace(/^partly eaten\s+/, '')
    .replace(/\s+corpses?$/, '');
}

/** True when text (e.g. "a newt corpse") names a corpse that is safe for a hero of `race` to eat.
 * @param {string} text
 * @param {string} [race]
 * @returns {boolean} */
export function safeCorpse(text, race = '') {
  const name = corpseName(text);
  if (SAFE_CORPSES.includes(name)) return true;
  const hero = String(race).toLowerCase();
  return Object.entries(RACE_CORPSES).some(([kin, names]) => kin !== hero && names.includes(name));
}

/** True when eating this (safe) corpse costs the hero nothing but a turn or two: a
 *  Monk's meat meal costs alignment, so a Monk eats meat only when hungry.
 * @param {string} text
 * @param {string | undefined} role
 * @param {string | undefined} hunger the vitals' hunger (e.g. "not_hungry")
 * @returns {boolean} */
export function corpseWelcome(text, role, hunger) {
  if (String(role) !== 'Monk' || VEGAN.includes(corpseName(text))) return true;
  return !['not_hungry', 'satiated'].includes(String(hunger));
}

/** The carried food item to eat now, or null: never corpses, tins or eggs.
 * @param {import('./frame').Item[] | null | undefined} inventory
 * @returns {import('./frame').Item | null} */
export function packFood(inventory) {
  const food = (inventory || []).filter((item) => item.category === 'food' && !/corpse|tin\b|egg/.test(item.label));
  for (const pattern of PACK_FOOD) {
    const item = food.find((entry) => pattern.test(entry.label));
    if (item) return item;
  }
  return null;
}

/** Labels worth picking up as food. */
export const FOOD_TO_PICK = /food ration|cram ration|lembas|[kc]-ration|fortune cookie|apple|orange|banana|melon|carrot|clove of garlic|sprig of wolfsbane|lump of royal jelly|tripe ration/i;
