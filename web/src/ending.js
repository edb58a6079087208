// ending.js - an ended game's page: a tombstone (name, score, cause, year),
// and the end-of-game windows in the order the driver recorded them
// (end.windows: possessions, attributes, conduct, overview, vanquished -
// whichever the game showed). No end.windows: nothing extra is shown.
// Game text goes through textContent only (dom.js).
import { h } from './dom.js';

const WIDTH = 18; // the stone's inside, as NetHack's tty draws it

function centred(text) {
  const line = String(text).slice(0, WIDTH);
  const left = Math.floor((WIDTH - line.length) / 2);
  return `${' '.repeat(left)}${line}${' '.repeat(WIDTH - line.length - left)}`;
}

/** Break `text` into lines of at most WIDTH characters, at spaces where it can. */
function wrap(text) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
    while (line.length > WIDTH) {
      lines.push(line.slice(0, WIDTH));
      line = line.slice(WIDTH);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The tombstone's lines: NetHack's RIP stone with this game's name, gold/score, cause and year. */
export function tombstoneLines({ name, score, cause, year }) {
  const body = [name || '', `${score ?? 0} points`, ...wrap(cause || 'ended'), String(year)];
  return [
    '       ----------',
    '      /          \\',
    '     /    REST    \\',
    '    /      IN      \\',
    '   /     PEACE      \\',
    '  /                  \\',
    ...body.map((text) => `  |${centred(text)}|`),
    ' *|     *  *  *      | *',
    '_)/\\\\_//(\\/(/\\)/\\//\\/|_)_',
  ];
}

/** The ending section of an ended game, or null for a live one. */
export function endingPanel(record, snapshot) {
  const end = snapshot?.end || null;
  if (!record.endedAt && !end) return null;
  const cause = record.death || end?.death || (record.endReason === 'ascended' ? 'ascended' : record.endReason) || end?.how;
  const score = record.score ?? end?.score;
  const year = new Date(record.endedAt || Date.now()).getFullYear();
  const name = snapshot?.session?.name || record.name;
  const stone = tombstoneLines({ name, score, cause, year });
  const windows = Array.isArray(end?.windows) ? end.windows : [];
  return h('section', { className: 'ending panel', dataset: { panel: 'ending' }, 'aria-label': 'How the game ended' },
    h('h3', { text: 'Rest in peace' }),
    h('pre', { className: 'tombstone', role: 'img', tabindex: '0', dataset: { field: 'tombstone' },
               'aria-label': `Tombstone: ${name || '(unnamed)'}, ${score ?? 0} points, ${cause || 'ended'}, ${year}`,
               text: stone.join('\n') }),
    h('p', {}, h('span', { className: 'label', text: 'Cause ' }), h('strong', { dataset: { field: 'ending-cause' }, text: cause || '—' }),
      h('span', { className: 'label', text: ' · score ' }), h('strong', { dataset: { field: 'ending-score' }, text: String(score ?? '—') })),
    windows.length
      ? h('div', { className: 'end-windows', dataset: { field: 'end-windows' } }, windows.map((window, index) => {
          const lines = Array.isArray(window?.lines) ? window.lines : [];
          const title = lines.find((line) => String(line).trim()) || `Window ${index + 1}`;
          return h('details', { className: 'end-window', open: 'open', dataset: { window: String(index) } },
            h('summary', { text: String(title).trim() }),
            h('pre', { className: 'passage', tabindex: '0', text: lines.join('\n') }));
        }))
      : null);
}

// NetHack's top-ten table after a game ends ("No  Points  Name  Hp [max]" and
// its entries) is printed through the message window: it is not news.
const TOP_TEN = /^\s*No\s+Points\s+Name\b/;

/** An ended game's messages without the top-ten table and what follows it. */
export function withoutTopTen(messages) {
  const at = messages.findIndex((text) => TOP_TEN.test(text));
  return at < 0 ? messages : messages.slice(0, at);
}
