// map-summary.js - the map in a sentence, for screen readers: where the
// hero stands, what the eight squares around it show, and the latest
// message. Built only from what the map shows (marks and kinds of the
// snapshot rows), so it tells a listener no more than a viewer sees.

import { COMPASS } from '../../webmcp/vocabulary.js';

/** A step's bearing, clockwise from north (y grows southward). @param {[string, number, number]} step */
const bearing = ([, dx, dy]) => (Math.atan2(dx, -dy) + 2 * Math.PI) % (2 * Math.PI);
// The vocabulary's compass read round the hero, clockwise from north.
const DIRECTIONS = [...COMPASS].sort((a, b) => bearing(a) - bearing(b));

// The `kinds` codes of the rows (docs/PROTOCOL.md, rows-v1).
/** @type {Record<string, string>} */
const KINDS = { M: 'a creature', P: 'a tame creature', D: 'a detected creature', R: 'a ridden creature',
                I: 'a remembered unseen creature', O: 'an object', B: 'a boulder', S: 'a statue', X: 'a trap',
                W: 'a warning', E: 'an effect' };
// Terrain by the mark tty NetHack draws for it.
/** @type {Record<string, string>} */
const TERRAIN = { '.': 'floor', '#': 'corridor', '-': 'wall', '|': 'wall', '+': 'door', '<': 'stairs up',
                  '>': 'stairs down', '{': 'fountain', '_': 'altar', '}': 'water', '^': 'a trap' };

/** @typedef {{y: number, marks: string, kinds?: string}} Row one snapshot row (rows-v1) */

/** What the square (x, y) shows, e.g. "wall (-)", or null for nothing.
 * @param {Map<number, Row>} rowsByY
 * @param {number} x
 * @param {number} y
 * @returns {string | null} */
function describe(rowsByY, x, y) {
  const row = rowsByY.get(y);
  if (!row || x < 0 || x >= 80) return null;
  const mark = row.marks[x] || ' ';
  if (mark === ' ') return null;
  const kind = row.kinds ? row.kinds[x] : null;
  const what = (kind && KINDS[kind]) || TERRAIN[mark] || 'something';
  return `${what} (${mark})`;
}

/** "You are at column 12, row 5. North: wall (-); east: a creature (d). Latest message: …"
 * @param {Row[]} rows
 * @param {{x: number, y: number} | null | undefined} hero
 * @param {string[]} messages
 * @returns {string} */
export function mapSummary(rows, hero, messages) {
  /** @type {string[]} */
  const parts = [];
  if (hero && typeof hero.x === 'number') {
    const rowsByY = new Map(rows.map((row) => [row.y, row]));
    parts.push(`Hero at column ${hero.x}, row ${hero.y}.`);
    const around = DIRECTIONS.map(([name, dx, dy]) => {
      const what = describe(rowsByY, hero.x + dx, hero.y + dy);
      return what ? `${name}: ${what}` : null;
    }).filter(Boolean);
    parts.push(around.length ? `Around: ${around.join('; ')}.` : 'Nothing seen around.');
  }
  const latest = messages.filter((text) => !/^Count: \d+$/.test(text)).at(-1);
  if (latest) parts.push(`Latest message: ${latest}`);
  return parts.join(' ');
}
