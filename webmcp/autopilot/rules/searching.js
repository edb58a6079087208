// searching.js - the explored level with no way down: the plan's dead ends
// and wall spots (each with a cap), then plan wayOn's ranked search spots,
// then around; after a whole round with no way down, the
// level is left upward to look for another (the Mines' branch on Dlvl 2-4),
// and the hero comes back to search again.

import { isWayDown } from './context.js';
import { bestSearchSpot } from './wayon.js';
import { digDown, endTrips, goDown, leaveUp, onTripUp, waysDown } from './ways.js';

const SPOT_SEARCH = 15; // turns per search call
const SPOT_SEARCHES = 2; // search calls per wall spot (each search finds a hidden square 1 time in 7)
const DEAD_END_SEARCHES = 3; // per dead end: where hidden corridors most often are
const LEVEL_SEARCH_CAP = 40; // search calls per level once everything else is tried
const FRESH_MISSES = 3; // walks in a row to unsearched walls that found no route: shut in
const TRAP_STEPS = 3; // per level: steps onto a known trap to get out
// dungeon.def: the Gnomish Mines branch from Dlvl 2-4. Levels deeper than
// that, and Mines levels, are only explored on the way up.
const BRANCH_DEEPEST = 4;
const BRANCH_SHALLOWEST = 2;
const ROUNDS_BEFORE_TRIP = 1; // rounds of searching on a level before it is given up
const TRIPS_UP = 2; // per level given up: then it searches on there for good

/** On the way up from a level given up, a level below the branch levels (or a Mines level) is only explored. */
export function passThroughOnTripUp(ctx) {
  if (!onTripUp(ctx.memory, ctx.levelId) || !(ctx.depth > BRANCH_DEEPEST || /Gnomish Mines/.test(ctx.dungeon))) return null;
  return leaveUp(ctx, 'on the way up for another way down: nothing more to see here');
}

/** Dead ends first, then the wall spots with the most undiscovered around them. */
export function searchPlanSpots(ctx) {
  const { plan, level, hero } = ctx;
  const deadEnds = plan.deadEnds || [];
  const arrived = arrivedSpot(level, hero);
  const spot = arrived || [...deadEnds, ...(plan.searchSpots || [])].find((entry) => entry.distance !== null
    && (level.searched.get(`${entry.x},${entry.y}`) || 0) < (deadEnds.includes(entry) ? DEAD_END_SEARCHES : SPOT_SEARCHES));
  if (!spot) return null;
  const key = `${spot.x},${spot.y}`;
  const kind = arrived ? arrived.kind : deadEnds.includes(spot) ? 'dead end' : 'wall';
  if (hero.x !== spot.x || hero.y !== spot.y) {
    level.spotWalk = { key, kind }; // what the walk cost the spot is counted after it (spotWalked)
    return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: spot.x, y: spot.y }, maxActions: 120 },
             why: `walk to the ${kind} at ${key} to search`, leg: 'spotWalk' };
  }
  level.searched.set(key, Math.floor(level.searched.get(key) || 0) + 1);
  level.explored = false;
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: SPOT_SEARCH }, why: `search the ${kind} at ${key}` };
}

// navigator.py's stops for something that happened to the hero on the way, not for the way itself
const INTERRUPTED = ['decision', 'hpDropped', 'attacked', 'conditionsChanged', 'hungerChanged', 'newCreature', 'interrupted'];
const WALK_COST = 0.5; // any other walk: a few to a spot give it up (a search there, once arrived, floors it away)
const INTERRUPTED_WALK_COST = 0.125; // a walk cut short by a creature is tried again, not forever

/** After a walk to a search spot: one cut short by a creature hardly counts against the spot; any other
 *  (no route, blocked, even arrived) counts half a search, so two spots the plan ranks in turn are not
 *  walked between forever (seed 10011, when an arrival cost nothing). (Counted as any other walk, seed 7026's
 *  walks to the one wall facing Dlvl 2's unexplored half, stopped by grid bugs, gave it up unsearched.) */
export function spotWalked(level, stopReason) {
  const walk = level.spotWalk;
  level.spotWalk = null;
  if (!walk) return;
  const cost = INTERRUPTED.includes(stopReason) ? INTERRUPTED_WALK_COST : WALK_COST;
  level.searched.set(walk.key, (level.searched.get(walk.key) || 0) + cost);
  level.spotArrived = stopReason === 'arrived' ? walk : null;
}

/** The spot a walk just arrived at is searched even if the plan, drawn from the new square, now ranks
 *  another first (what the hero sees from a spot changes the undiscovered squares the ranking counts):
 *  seed 10011's walls at 5,16 and 7,15 were walked between 2,539 times, each arrival choosing the other,
 *  and neither was ever searched. */
function arrivedSpot(level, hero) {
  const arrived = level.spotArrived;
  level.spotArrived = null;
  if (!arrived || arrived.key !== `${hero.x},${hero.y}`) return null;
  return { x: hero.x, y: hero.y, kind: arrived.kind };
}

/** Nothing else to try here, and a way down is known: take it. */
export function descendAnyway(ctx) {
  const downs = waysDown(ctx);
  if (!downs.length || ctx.level.calls < ctx.level.descendBlockedUntil) return null;
  return goDown(ctx, downs, 'nothing else to try: go down');
}

/** On a trip up: a branch level's spots were searched; further up while branch levels are above, else back down. */
export function tripOnOrBack(ctx) {
  if (!onTripUp(ctx.memory, ctx.levelId)) return null;
  if (ctx.depth > BRANCH_SHALLOWEST) {
    const up = leaveUp(ctx, 'no other way down here either: further up');
    if (up) return up;
  }
  endTrips(ctx.memory);
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 5 },
           why: 'no other way down found above: back down to the level given up, to search it again' };
}

/** Shut in: step onto an adjacent known trap (not water or lava), a few times per level. */
function stepOverTrap(ctx) {
  const { level } = ctx;
  if (level.trapSteps >= TRAP_STEPS) return null;
  const cell = (ctx.scene.nearby || []).find((entry) => entry.direction && entry.walkable !== false && !entry.occupant
    && entry.hazards && entry.hazards.length && entry.hazards.every((hazard) => hazard === 'trap'));
  if (!cell) return null;
  level.trapSteps += 1;
  level.freshMisses = 0;
  return { tool: 'travel', args: { ...ctx.base, mode: 'step', target: { direction: cell.direction } },
           why: `no route out of here but over the trap at ${cell.x},${cell.y}: step onto it` };
}

/** Every fourth search call walks on to another door's approach square to search from. */
function doorApproach(ctx) {
  const { level, hero } = ctx;
  if (level.searches % 4 !== 1) return null;
  const candidates = (ctx.plan.doors || []).filter((door) => door.approach && door.distance)
    .map((door) => door.approach).filter((spot) => !(spot.x === hero.x && spot.y === hero.y));
  if (!candidates.length) return null;
  return candidates[(level.searches >> 2) % candidates.length];
}

/** Up to the level's cap of search calls: plan wayOn's best spot, a door approach, here. */
export function searchWalls(ctx) {
  const { level } = ctx;
  if (level.searches >= LEVEL_SEARCH_CAP) return null;
  level.searches += 1;
  if (level.searches % 4 === 0) level.explored = false; // look again at what searching revealed
  // Walls out of reach one after another: the hero is shut in, by known
  // traps the routes avoid (it came in over one), so it steps onto one.
  if (level.freshMisses >= FRESH_MISSES) {
    const over = stepOverTrap(ctx);
    if (over) return over;
  }
  if (ctx.wayOn && level.freshMisses < FRESH_MISSES) { // plan wayOn's spots, ranked by the unknown and the turns searched
    const best = bestSearchSpot(ctx);
    if (best) return best;
  }
  const fallback = doorApproach(ctx);
  if (fallback) {
    return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: fallback, maxActions: 120 },
             why: `no way on: try searching from ${fallback.x},${fallback.y}`, leg: 'to' };
  }
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: SPOT_SEARCH },
           why: `no door, dead end or way down left: search here (${level.searches}/${LEVEL_SEARCH_CAP})` };
}

/** A whole round of searching found no way down: dig, take the Mines, go up
 *  to look for another way, or start the round over. Always answers. */
export function endOfRound(ctx) {
  const { level, memory } = ctx;
  level.searches = 0;
  level.explored = false;
  level.rounds += 1;
  const dig = digDown(ctx);
  if (dig) return dig;
  const mines = [...memory.avoidDown].filter((key) => key.startsWith(`${ctx.levelId}:`));
  if (mines.length) {
    for (const key of mines) memory.avoidDown.delete(key);
    memory.minesAccepted = true;
    return goDown(ctx, ctx.scene.features.filter(isWayDown), 'no other way down after a whole round of searching: take the Gnomish Mines');
  }
  // Go up and look for another way down rather than search on here for
  // thousands of turns while food runs out.
  if (level.rounds >= ROUNDS_BEFORE_TRIP && level.trips < TRIPS_UP && ctx.depth > BRANCH_SHALLOWEST && !/Sokoban/.test(ctx.dungeon)) {
    const up = leaveUp(ctx, 'no way down found after a whole round of searching: go up and look for another');
    if (up) {
      level.trips += 1;
      memory.minesAccepted = true; // the Mines are a way on like any other now
      return up;
    }
  }
  // Every spot and door gets another round (walks to them may have been cut short).
  level.searched.clear();
  level.freshMisses = 0;
  level.pushes.clear();
  level.doorWalks.clear();
  level.doorTries.clear();
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: 5 }, why: 'search cap reached: start over' };
}
