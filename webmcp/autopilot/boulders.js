// boulders.js - a way on behind a boulder. Routes never go through a
// displayed boulder (a push may fail), so a corridor that a boulder blocks
// looks like a dead end to exploring; a beginner pushes it. Everything here
// reads the frame's map text, i.e. what the player saw.

import { COMPASS } from '../vocabulary.js';
import { markAt } from './maptext.js';
const STAND_ON = new Set(['.', '#', '<', '>', '{', '$', '*', '%', '(', ')', '[', '!', '?', '/', '=', '"']);
const PUSH_TRIES = 2; // per boulder and direction: a stuck boulder ("You try to move the boulder, but in vain") stays

/** Boulder positions the map shows (the "`" mark, when its legend says boulder).
 * @param {import('./frame').MapView} map
 * @returns {Array<[number, number]>} */
function boulders(map) {
  if (!/boulder/.test((map.legend || {})['`'] || '')) return [];
  return (map.symbols && map.symbols['`']) || [];
}

/** The next push to try on this level: {approach, direction, key, boulder}
 *  or null. A push goes from a square the hero can stand on, into the
 *  boulder, toward a square not yet seen or open (where the boulder can
 *  roll). A push that cannot work (diagonally out of a doorway, another
 *  boulder beyond) is given up after its tries.
 * @param {import('./frame').Scene} scene
 * @param {Map<string, number>} tried pushes made, by "x,y,direction"
 * @returns {{approach: import('./frame').Position, direction: string, key: string,
 *            boulder: import('./frame').Position} | null} */
export function nextPush(scene, tried) {
  const map = scene.map;
  if (!map || !map.text || !map.bounds) return null;
  const rows = map.text.split('\n');
  const hero = scene.self && scene.self.position;
  for (const [bx, by] of boulders(map)) {
    for (const [direction, dx, dy] of COMPASS) {
      const key = `${bx},${by},${direction}`;
      if ((tried.get(key) || 0) >= PUSH_TRIES) continue;
      const heroThere = hero && hero.x === bx - dx && hero.y === by - dy;
      const from = heroThere ? '.' : markAt(rows, map.bounds, bx - dx, by - dy); // the hero's own square shows "@"
      const beyond = markAt(rows, map.bounds, bx + dx, by + dy);
      if (!STAND_ON.has(from)) continue;
      if (beyond !== ' ' && beyond !== '#' && beyond !== '.') continue;
      return { approach: { x: bx - dx, y: by - dy }, direction, key, boulder: { x: bx, y: by } };
    }
  }
  return null;
}
