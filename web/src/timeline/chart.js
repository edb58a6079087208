// chart.js - the HP and depth chart under the scrubber: SVG built with DOM APIs
// (createElementNS, setAttribute), one point per tool call at its last move.
// HP is drawn as a share of the maximum (top: full), depth as a step line
// (top: Dlvl 1, down: deeper); the current move is a vertical line.

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 1000;
const HEIGHT = 60;

/** @param {string} tag @param {Record<string, string | number>} attributes */
function svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** The x of a move. @param {number} move @param {number} count */
const xOf = (move, count) => (count > 0 ? (move / count) * WIDTH : 0);

/** The chart's points (pure): [x, y] per call, HP share and depth.
 * @param {import('./source.js').TimelineCall[]} calls @param {number} count */
export function chartPoints(calls, count) {
  const deepest = Math.max(1, ...calls.map((c) => (typeof c.depth === 'number' ? c.depth : 1)));
  /** @type {string[]} */
  const hp = [];
  /** @type {string[]} */
  const depth = [];
  let lastDepth = null;
  for (const call of calls) {
    const x = xOf(call.last, count).toFixed(1);
    if (typeof call.hp === 'number' && typeof call.hpMax === 'number' && call.hpMax > 0) {
      const share = Math.max(0, Math.min(1, call.hp / call.hpMax));
      hp.push(`${x},${((1 - share) * (HEIGHT - 4) + 2).toFixed(1)}`);
    }
    if (typeof call.depth === 'number') {
      const y = (((call.depth - 1) / Math.max(1, deepest - 1 || 1)) * (HEIGHT - 4) + 2).toFixed(1);
      if (lastDepth !== null) depth.push(`${x},${lastDepth}`); // a step, not a slope
      depth.push(`${x},${y}`);
      lastDepth = y;
    }
  }
  return { hp: hp.join(' '), depth: depth.join(' '), deepest };
}

export class Chart {
  constructor() {
    this.element = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, preserveAspectRatio: 'none', class: 'timeline-chart',
      role: 'img', 'aria-label': 'HP (green) and depth (blue) over the game' });
    this.depth = svg('polyline', { fill: 'none', stroke: '#4a7bd0', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' });
    this.hp = svg('polyline', { fill: 'none', stroke: '#2e9b45', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' });
    this.cursor = svg('line', { y1: 0, y2: HEIGHT, stroke: '#c33', 'stroke-width': 1, 'vector-effect': 'non-scaling-stroke' });
    this.element.append(this.depth, this.hp, this.cursor);
  }

  /** @param {import('./source.js').TimelineCall[]} calls @param {number} count */
  draw(calls, count) {
    const points = chartPoints(calls, count);
    this.hp.setAttribute('points', points.hp);
    this.depth.setAttribute('points', points.depth);
  }

  /** @param {number} move @param {number} count */
  at(move, count) {
    const x = xOf(move, count).toFixed(1);
    this.cursor.setAttribute('x1', x);
    this.cursor.setAttribute('x2', x);
  }
}
