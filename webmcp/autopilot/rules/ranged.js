// ranged.js - missiles at a hostile in line before it closes in: what is
// quivered is fired when it can be (ammunition with its launcher held,
// or daggers, darts, knives, spears and shuriken thrown by hand). A Ranger
// fights with its bow (the role's skill: several arrows a shot), so it
// wields the launcher for its quivered ammunition, fires even at an
// adjacent hostile (a bow bashes for 1d2), re-quivers the next stack and
// goes back to its melee weapon when the ammunition is gone. What is
// held, quivered or the alternate weapon is `equipmentSlots`; what a
// piece is comes from its name (no field carries an object's type).

import { directionOf, inLine, onOwnElbereth } from './context.js';

export const FIRE_RANGE = 7; // squares: a thrown dagger flies about 8 at strength 16; arrows farther
// Shots at one square before it is given up for a while: a missile that cannot get there (diagonally through a
// doorway, say) would otherwise be fired forever at a creature that does not move.
const SHOTS_PER_SQUARE = 6;
const GIVE_UP_TURNS = 30;
const WIELD_RETRY_TURNS = 200; // a wield that did not take (a cursed weapon welded on) is not retried for this long

// [launcher, its ammunition]; `\bbow\b` never matches "crossbow".
const LAUNCHED = [
  [/\b(?:bow|yumi)\b/, /\b(?:arrows?|ya)\b/],
  [/\bcrossbow\b(?! bolt)/, /\bcrossbow bolts?\b/],
];
const THROWN_BY_HAND = /\b(?:daggers?|knife|knives|darts?|shuriken|spears?|javelins?)\b/;
// Roles whose launcher is their weapon (skill and multishot): the rest keep their melee weapon wielded.
const ARCHERS = new Set(['Ranger']);

const label = (/** @type {any} */ item) => String((item && item.label) || '');
const slotted = (/** @type {any} */ item, /** @type {string} */ slot) => ((item && item.equipmentSlots) || []).includes(slot);
const cursed = (/** @type {any} */ item) => /\bcursed\b/.test(label(item));

/** The launcher pair an ammunition label belongs to, or null. */
function pairOf(ammo) {
  return LAUNCHED.find(([, shot]) => shot.test(label(ammo))) || null;
}

/** What the pack holds for shooting: the quivered stack, the wielded item, and whether the quiver can be fired now. */
export function rangedKit(inventory) {
  const items = (inventory || []).filter((item) => item.category === 'weapon' || item.category === 'gem');
  const quiver = items.find((item) => slotted(item, 'quiver')) || null;
  const held = items.find((item) => slotted(item, 'weapon')) || null;
  const pair = quiver && pairOf(quiver);
  const launcher = pair ? items.find((item) => pair[0].test(label(item)) && !pair[1].test(label(item))) || null : null;
  const launcherWielded = Boolean(pair && held && pair[0].test(label(held)) && !pair[1].test(label(held)));
  const byHand = Boolean(quiver && !pair && THROWN_BY_HAND.test(label(quiver)) && !slotted(quiver, 'weapon'));
  return { items, quiver, held, pair, launcher, launcherWielded, ready: launcherWielded || byHand };
}

/** The line from the hero to `target` is free of creatures not hostile (a pet, a peaceful, a shopkeeper), and
 *  no peaceful shopkeeper is in sight: a bolt or missile that misses flies on into the shop's goods (seed 11059's
 *  Wizard, at a general store's door: "The spell misses the gecko. A dark green potion shatters! You owe
 *  Angmagssalik 133 zorkmids for it! Angmagssalik gets angry!", and the shopkeeper killed it). */
export function clearShot(ctx, target) {
  const { hero } = ctx;
  if ((ctx.scene.entities || []).some((entity) => entity.appearance === 'shopkeeper' && entity.attitude === 'peaceful')) return false;
  const steps = inLine(hero, target);
  const sx = Math.sign(target.x - hero.x);
  const sy = Math.sign(target.y - hero.y);
  const others = (ctx.scene.entities || []).filter((entity) => entity.attitude !== 'hostile');
  for (let i = 1; i < steps; i += 1) {
    if (others.some((entity) => entity.x === hero.x + sx * i && entity.y === hero.y + sy * i)) return false;
  }
  // Nothing not hostile just beyond it either: a missile that misses flies on.
  return !others.some((entity) => inLine(hero, entity) > steps && Math.sign(entity.x - hero.x) === sx
    && Math.sign(entity.y - hero.y) === sy && inLine(target, entity) > 0 && inLine(target, entity) <= 3);
}

/** Fire the quiver at the nearest hostile in line within range: from two squares, or adjacent with a launcher
 *  wielded (a gas spore only from two squares or more: its blast reaches its neighbours). */
export function fireAtHostile(ctx) {
  const kit = rangedKit(ctx.scene.inventory);
  if (!kit.ready || onOwnElbereth(ctx)) return null;
  const closest = (/** @type {any} */ entity) => (kit.launcherWielded && !/gas spore/.test(entity.appearance || '') ? 1 : 2);
  const targets = ctx.hostiles
    .map((entity) => ({ entity, range: inLine(ctx.hero, entity) }))
    .filter(({ entity, range }) => range >= closest(entity) && range <= FIRE_RANGE && clearShot(ctx, entity))
    .filter(({ entity }) => !(diagonal(ctx.hero, entity) && ctx.scene.here && ctx.scene.here.terrain === 'doorway'))
    .filter(({ entity }) => shotsAt(ctx, entity) < SHOTS_PER_SQUARE)
    .sort((a, b) => a.range - b.range);
  if (!targets.length) return null;
  const { entity, range } = targets[0];
  const direction = directionOf(entity.x - ctx.hero.x, entity.y - ctx.hero.y);
  countShot(ctx, entity);
  rememberLine(ctx, entity);
  ctx.memory.shotKind = kit.pair ? kit.pair[1] : THROWN_BY_HAND; // what to pick up and quiver again later
  const what = kit.launcherWielded ? `fire ${label(kit.quiver)}` : `throw ${label(kit.quiver)}`;
  return { tool: 'use', args: { ...ctx.base, action: 'fire', direction },
           why: `the ${entity.appearance} ${range === 1 ? 'adjacent' : `${range} squares`} to the ${direction}: ${what}`,
           intent: { kind: 'fire', direction } };
}

const diagonal = (/** @type {any} */ a, /** @type {any} */ b) => a.x !== b.x && a.y !== b.y;

/** Shots fired lately at this square (forgotten GIVE_UP_TURNS after the first). */
function shotsAt(ctx, entity) {
  const shots = ctx.memory.shots && ctx.memory.shots.get(`${ctx.levelId}:${entity.x},${entity.y}`);
  return shots && ctx.turn - shots.since <= GIVE_UP_TURNS ? shots.count : 0;
}

function countShot(ctx, entity) {
  if (!ctx.memory.shots) ctx.memory.shots = new Map();
  const key = `${ctx.levelId}:${entity.x},${entity.y}`;
  const count = shotsAt(ctx, entity);
  ctx.memory.shots.set(key, { count: count + 1, since: count ? ctx.memory.shots.get(key).since : ctx.turn });
}

/** The quiver is empty: quiver the next stack of what was fired (the quiver ran out, or picked-up shots came back
 *  as a stack of their own), or, before any shot, a stack of daggers, darts or the like (a Rogue's daggers start
 *  unquivered). Never with a hostile adjacent: the fight comes first. */
export function requiver(ctx) {
  if (ctx.adjacent.length) return null;
  const kit = rangedKit(ctx.scene.inventory);
  if (kit.quiver) return null;
  const kind = ctx.memory.shotKind;
  const tried = triedWields(ctx.memory);
  const next = kit.items.find((item) => (kind ? kind.test(label(item)) : THROWN_BY_HAND.test(label(item)) && (item.quantity || 1) >= 2)
    && !slotted(item, 'weapon') && !cursed(item) && !((tried.get(item.id) ?? -Infinity) > ctx.turn - WIELD_RETRY_TURNS));
  if (!next) return null;
  tried.set(next.id, ctx.turn);
  return { tool: 'equipment', args: { ...ctx.base, action: 'quiver', itemId: next.id }, why: `the quiver is empty: quiver ${label(next)}`,
           intent: { kind: 'quiver', itemId: next.id } };
}

/** An archer's weapon follows its ammunition: the launcher wielded while the quiver holds shots for it, the melee
 *  weapon back once none is left. Never with a hostile adjacent (a wield costs a turn). */
export function archerWeapon(ctx) {
  if (!ARCHERS.has(ctx.self.role) || ctx.adjacent.length) return null;
  const { turn, base } = ctx;
  const kit = rangedKit(ctx.scene.inventory);
  const tried = triedWields(ctx.memory);
  const fresh = (/** @type {any} */ item) => !((tried.get(item.id) ?? -Infinity) > turn - WIELD_RETRY_TURNS);
  if (kit.held && cursed(kit.held)) return null; // welded on: nothing else can be wielded
  const inHand = kit.held && LAUNCHED.find(([bow, shot]) => bow.test(label(kit.held)) && !shot.test(label(kit.held)));
  if (inHand && !kit.items.some((item) => inHand[1].test(label(item)))) return meleeBack(ctx, kit, tried, fresh);
  if (!kit.pair || kit.launcherWielded || !kit.launcher || cursed(kit.launcher) || !fresh(kit.launcher)) return null;
  tried.set(kit.launcher.id, turn);
  if (slotted(kit.launcher, 'alternateWeapon')) {
    return { tool: 'equipment', args: { ...base, action: 'swap' },
             why: `${label(kit.quiver)} quivered: swap to ${label(kit.launcher)} to fire them` };
  }
  return { tool: 'equipment', args: { ...base, action: 'wield', itemId: kit.launcher.id },
           why: `${label(kit.quiver)} quivered: wield ${label(kit.launcher)} to fire them`, intent: { kind: 'wield', itemId: kit.launcher.id } };
}

/** @returns {Map<string, number>} item id -> the turn of its last wield or quiver try */
function triedWields(memory) {
  if (!memory.wieldTried) memory.wieldTried = new Map();
  return memory.wieldTried;
}

function meleeBack(ctx, kit, tried, fresh) {
  const { base, turn } = ctx;
  const melee = kit.items.find((item) => item.category === 'weapon' && !slotted(item, 'weapon') && !cursed(item) && fresh(item)
    && !LAUNCHED.some(([bow, shot]) => bow.test(label(item)) || shot.test(label(item))));
  if (!melee) return null;
  tried.set(melee.id, turn);
  if (slotted(melee, 'alternateWeapon')) {
    return { tool: 'equipment', args: { ...base, action: 'swap' }, why: `no ammunition left: swap back to ${label(melee)}` };
  }
  return { tool: 'equipment', args: { ...base, action: 'wield', itemId: melee.id }, why: `no ammunition left: wield ${label(melee)}`,
           intent: { kind: 'wield', itemId: melee.id } };
}

const LINE_TURNS = 150; // a shot's line is walked for its missiles this long after
const LINE_REACH = 10; // squares beyond the hero a missile may lie along its line
const SHOT_LINES = 8; // lines kept (the latest)

/** The line a shot flew along: its missiles lie on it (those that hit, under the target; the rest beyond). */
function rememberLine(ctx, entity) {
  const lines = ctx.memory.shotLines || (ctx.memory.shotLines = []);
  lines.push({ levelId: ctx.levelId, x: ctx.hero.x, y: ctx.hero.y, dx: Math.sign(entity.x - ctx.hero.x),
               dy: Math.sign(entity.y - ctx.hero.y), turn: ctx.turn });
  if (lines.length > SHOT_LINES) lines.shift();
}

/** A weapon-class object shown on a recent shot's line (so most likely a missile fired): walked to, once, with no
 *  threat near; pickUpShots then picks it up. */
export function collectShots(ctx) {
  if (!ctx.memory.shotKind || ctx.threatNear || !ctx.memory.shotLines) return null;
  const { memory, levelId, turn } = ctx;
  const walked = memory.shotWalks || (memory.shotWalks = new Set());
  const onLine = (/** @type {any} */ object) => memory.shotLines.some((line) => line.levelId === levelId && turn - line.turn <= LINE_TURNS
    && [...Array(LINE_REACH).keys()].some((i) => object.x === line.x + line.dx * (i + 1) && object.y === line.y + line.dy * (i + 1)));
  const shot = (ctx.scene.objects || []).filter((object) => object.mark === ')' && object.distance > 0 && object.distance <= LINE_REACH
    && !walked.has(`${levelId}:${object.x},${object.y}`) && onLine(object))
    .sort((a, b) => a.distance - b.distance)[0];
  if (!shot) return null;
  walked.add(`${levelId}:${shot.x},${shot.y}`);
  return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: shot.x, y: shot.y }, maxActions: 15 },
           why: `the ) at ${shot.x},${shot.y} lies where a shot flew: fetch it`, leg: 'to' };
}

const PICKUP_AGAIN_TURNS = 20; // a square picked up from: again only after this long (more shots may land there)

/** Shots of the kind fired lying underfoot (they land where they stop), picked up with no threat near. */
export function pickUpShots(ctx) {
  const kind = ctx.memory.shotKind;
  if (!kind || ctx.threatNear) return null;
  const { memory, levelId, hero, turn } = ctx;
  const here = ((ctx.scene.here && ctx.scene.here.items) || []).find((item) => kind.test(label(item))
    && !/for sale|unpaid|no charge/.test(label(item)));
  if (!here) return null;
  const picks = memory.shotPickups || (memory.shotPickups = new Map());
  const key = `${levelId}:${hero.x},${hero.y}`;
  if ((picks.get(key) ?? -Infinity) > turn - PICKUP_AGAIN_TURNS) return null;
  picks.set(key, turn);
  return { tool: 'interact', args: { ...ctx.base, action: 'pickup' }, why: `${label(here)} underfoot: pick them up`,
           intent: { kind: 'pickup', pattern: kind } };
}
