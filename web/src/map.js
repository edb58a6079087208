// map.js - the map as tty NetHack draws it: 21 rows of 80 columns, x rulers
// above (tens over ones), a y ruler on the left, and NetHack's colours.
//
// `rows` are the snapshot's {y, marks, colors} (rows-v1 strings indexed by
// x; colors are one hex digit per cell, 8 = no colour). Runs of one colour
// become one <span class="c?"> whose textContent is the marks.
import { h } from './dom.js';

const COLUMNS = 80;

function ruler(digit) {
  let line = '   ';
  for (let x = 0; x < COLUMNS; x += 1) line += digit(x);
  return h('div', { className: 'ruler', text: line });
}

function row(y, marks, colors, hero) {
  const line = h('div', { className: 'row', dataset: { y: String(y) } },
    h('span', { className: 'ruler', text: `${String(y).padStart(2, ' ')} ` }));
  let start = 0;
  for (let x = 1; x <= COLUMNS; x += 1) {
    const heroEdge = hero && (x === hero.x || x === hero.x + 1); // the hero gets a span of its own
    if (x < COLUMNS && colors[x] === colors[start] && !heroEdge) continue;
    const heroCell = hero && start === hero.x;
    line.append(h('span', { className: `c${colors[start] || '8'}${heroCell ? ' hero' : ''}`,
                            text: marks.slice(start, x) }));
    start = x;
  }
  return line;
}

/** A <pre> element drawing the map; `hero` = {x, y} is highlighted. */
export function renderMap(rows, hero) {
  const map = h('pre', { className: 'map', 'aria-label': 'NetHack map' });
  map.append(ruler((x) => String(Math.floor(x / 10))), ruler((x) => String(x % 10)));
  for (const { y, marks, colors } of rows) {
    map.append(row(y, marks.padEnd(COLUMNS, ' '), colors.padEnd(COLUMNS, '8'), hero && hero.y === y ? hero : null));
  }
  return map;
}

/** The marks of each row, exactly as drawn (for comparison in tests). */
export function mapText(rows) {
  return rows.map(({ marks }) => marks.replace(/\s+$/, '')).join('\n');
}
