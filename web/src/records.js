// records.js - the games lists both home views draw (the page's and the
// native MCP server's): a link to a game, and the table of the ten most
// recently completed games in seed 002's order (the caller's order), and
// the cells both lists of games in play share.
// Names and labels are untrusted game text: textContent only (dom.js).
import { ago, h, when } from './dom.js';

/** A link to a game's page; `href(gameId)` makes its URL. */
export function gameLink(game, href) {
  return h('a', { href: href(game.gameId), dataset: { gameId: game.gameId } },
    h('span', { className: 'name', text: game.name || '(unnamed)' }));
}

/** The completed games: character, times, end reason, floors, score, labels. */
export function recordsTable(records, href) {
  if (!records.length) return h('p', { className: 'muted', text: 'No completed games yet.' });
  return h('table', { className: 'records', dataset: { list: 'records' } },
    h('thead', {}, h('tr', {}, ['Character', 'Started', 'Ended', 'End reason', 'Deepest floor', 'Final floor', 'Score', 'Harness', 'Model']
      .map((title) => h('th', { text: title })))),
    h('tbody', {}, records.map((game) => h('tr', { dataset: { gameId: game.gameId } },
      h('td', {}, gameLink(game, href)),
      h('td', { text: when(game.startedAt) }),
      h('td', { text: when(game.endedAt) }),
      h('td', { text: game.endReason === 'ascended' ? 'ascended (won)' : game.endReason }),
      h('td', { text: String(game.deepest ?? 'unknown') }),
      h('td', { text: String(game.depth ?? 'unknown') }),
      h('td', { text: String(game.score ?? '—') }),
      h('td', { className: 'harness', text: game.harness || '—' }),
      h('td', { className: 'model', text: game.model || '—' })))));
}

/** The cells of a game in play after its name and state: started, last
 *  update, turn, deepest / current floor, harness, model. */
export function progressCells(game) {
  return [
    h('td', { text: when(game.startedAt) }),
    h('td', { text: ago(game.updatedAt) }),
    h('td', { text: String(game.turn ?? '—') }),
    h('td', { text: `${game.deepest ?? '?'} / ${game.depth ?? '?'}` }),
    h('td', { className: 'harness', text: game.harness || '—' }),
    h('td', { className: 'model', text: game.model || '—' }),
  ];
}
