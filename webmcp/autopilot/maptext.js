// maptext.js - reading the frame's map text (what the player saw): two
// ruler lines, then "yy " before each row of marks from bounds.x0.

/** The displayed mark at (x, y), or ' ' outside what the map shows.
 * @param {string[]} rows the map text's lines
 * @param {import('./frame').Bounds} bounds
 * @param {number} x
 * @param {number} y
 * @returns {string} */
export function markAt(rows, bounds, x, y) {
  const row = rows[y - bounds.y0 + 2];
  if (!row || x < bounds.x0) return ' ';
  return row[3 + x - bounds.x0] || ' ';
}
