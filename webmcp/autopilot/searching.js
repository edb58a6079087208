// searching.js - where else to search once the plan's search spots are
// used up: a hidden door or corridor can be in any wall, and searching on
// one square for hundreds of turns only finds what is next to it.

import { markAt } from './maptext.js';

const WALLS = new Set(['|', '-']);
const FLOOR = new Set(['.', '#']);
// Unknown squares are counted in this box around a spot (rooms are wide), in
// the part of the map that can hold rooms (as navigation.frontiers does).
const REACH_X = 10;
const REACH_Y = 4;
const AREA = { x0: 1, x1: 78, y0: 1, y1: 20 };
const WORTH = 10; // fewer unknown squares around than this: nothing to find

/** The unsearched square beside a wall (or in a corridor) with the most
 *  never-seen squares around it, then nearest; null when none is worth it.
 *  `searched` maps "x,y" to searches made there: a square next to one
 *  searched already is skipped (a search reaches the eight neighbours).
 * @param {import('./frame').Scene} scene
 * @param {Map<string, number>} searched
 * @returns {import('./frame').Position | null} */
export function freshSearchSpot(scene, searched) {
  const map = scene.map;
  if (!map || !map.text || !map.bounds) return null;
  const rows = map.text.split('\n');
  const { bounds } = map;
  const hero = scene.self.position;
  const done = [...searched].filter(([, count]) => count >= 1).map(([key]) => key.split(',').map(Number));
  const mark = (/** @type {number} */ x, /** @type {number} */ y) => (x === hero.x && y === hero.y ? '.' : markAt(rows, bounds, x, y));
  /** @type {{x: number, y: number, unknown: number, far: number} | null} */
  let best = null;
  for (let y = bounds.y0; y <= bounds.y1; y += 1) {
    for (let x = bounds.x0; x <= bounds.x1; x += 1) {
      const here = mark(x, y);
      if (!FLOOR.has(here)) continue;
      const besideWall = [[0, -1], [0, 1], [1, 0], [-1, 0]].some(([dx, dy]) => WALLS.has(mark(x + dx, y + dy)));
      if (here !== '#' && !besideWall) continue;
      if (done.some(([sx, sy]) => Math.max(Math.abs(sx - x), Math.abs(sy - y)) <= 1)) continue; // itself included
      let unknown = 0;
      for (let uy = Math.max(AREA.y0, y - REACH_Y); uy <= Math.min(AREA.y1, y + REACH_Y); uy += 1) {
        for (let ux = Math.max(AREA.x0, x - REACH_X); ux <= Math.min(AREA.x1, x + REACH_X); ux += 1) {
          if (mark(ux, uy) === ' ') unknown += 1;
        }
      }
      if (unknown < WORTH) continue;
      const far = Math.max(Math.abs(x - hero.x), Math.abs(y - hero.y));
      if (!best || unknown > best.unknown || (unknown === best.unknown && far < best.far)) best = { x, y, unknown, far };
    }
  }
  return best && { x: best.x, y: best.y };
}
