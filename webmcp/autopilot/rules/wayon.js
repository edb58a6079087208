// wayon.js - a stuck level's way on from `plan wayOn` (navigation/wayon.py,
// the one implementation every agent is offered): a known trap door or hole
// as a way down, a boulder push that opens a way, the search spots ranked by
// the unknown they face and discounted by the turns searched there. Each
// option carries `next`, the call to make now (the binding fields added here).

const OPTION_FOLLOWS = 3; // per option (kind and square) and level: walks and tries before it is given up

/** Everything after this reads `plan wayOn`: ask for it (once per view). */
export function needWayOn(ctx) {
  return ctx.wayOnAsked ? null : { query: 'wayOn' };
}

function follow(ctx, option, why, extra = {}) {
  const { level } = ctx;
  const key = `${option.kind}:${option.x},${option.y}:${option.direction || ''}`;
  const tries = level.wayOnFollows.get(key) || 0;
  if (tries >= OPTION_FOLLOWS || !option.next) return null;
  level.wayOnFollows.set(key, tries + 1);
  /** @type {Record<string, any>} */
  const move = { tool: option.next.tool, args: { ...ctx.base, ...option.next.arguments }, why: `${why} (${option.reason})`, ...extra };
  if (move.tool === 'travel' && move.args.mode === 'to') move.leg = 'to';
  if (move.tool === 'travel' && move.args.mode !== 'to') ctx.level.explored = false; // what lies beyond is new
  return move;
}

function options(ctx, kind) {
  return ((ctx.wayOn && ctx.wayOn.options) || []).filter((option) => option.kind === kind && option.distance !== null);
}

/** A known trap door or hole, with no staircase down known: the way down. */
export function trapDoorDown(ctx) {
  for (const option of options(ctx, 'trapDoor')) {
    const move = follow(ctx, option, `no stairs down known: the ${option.type || 'trap door'} at ${option.x},${option.y}`,
                        { intent: { kind: 'trapDoor' } });
    if (move) return move;
  }
  return null;
}

/** A boulder push that opens a way (routes never cross a boulder). */
export function pushFromWayOn(ctx) {
  for (const option of options(ctx, 'push')) {
    const move = follow(ctx, option, `push the boulder at ${option.boulder.x},${option.boulder.y} ${option.direction}`);
    if (move) return move;
  }
  return null;
}

/** The best-ranked search spot: walk there, then search (the plan counts the turns searched). */
export function bestSearchSpot(ctx) {
  const spot = (ctx.wayOn && ctx.wayOn.searchSpots || []).find((entry) => entry.distance !== null
    && (ctx.level.wayOnFollows.get(`search:${entry.x},${entry.y}:`) || 0) < OPTION_FOLLOWS * 2);
  if (!spot) return null;
  const key = `search:${spot.x},${spot.y}:`;
  ctx.level.wayOnFollows.set(key, (ctx.level.wayOnFollows.get(key) || 0) + 1);
  if (spot.x !== ctx.hero.x || spot.y !== ctx.hero.y) {
    return { tool: 'travel', args: { ...ctx.base, mode: 'to', to: { x: spot.x, y: spot.y }, maxActions: 120 },
             why: `no way on: walk to the search spot at ${spot.x},${spot.y} (${spot.reason})`, leg: 'freshSearch' };
  }
  return { tool: 'interact', args: { ...ctx.base, action: 'search', turns: spot.turns || 15 },
           why: `search at ${spot.x},${spot.y} (${spot.reason})` };
}
