// pushing.js - a boulder may close the way on (routes never cross one): push
// it, as plan wayOn says (which boulder, from which square, which way, and
// what the push opens).

import { pushFromWayOn } from './wayon.js';

export function pushBoulders(ctx) {
  return ctx.wayOn ? pushFromWayOn(ctx) : null;
}
