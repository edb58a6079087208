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

/** The completed games: character, role, times, end reason, cause, turns,
 *  floors, score, labels. `records` are the Python layer's GameRecords in
 *  the page's shape (durable-records.js, watch/board.py record_view). */
export function recordsTable(records, href) {
  if (!records.length) return h('p', { className: 'muted', text: 'No completed games yet.' });
  const columns = ['Character', 'Role', 'Started', 'Ended', 'End reason', 'Cause', 'Turns', 'Deepest floor',
                   'Final floor', 'Score', 'Harness', 'Model'];
  return h('div', { className: 'table-scroll' }, h('table', { className: 'records cards', dataset: { list: 'records' } },
    h('thead', {}, h('tr', {}, columns.map((title) => h('th', { scope: 'col', text: title })))),
    h('tbody', {}, records.map((game) => h('tr', { dataset: { gameId: game.gameId } },
      h('td', { dataset: { col: 'character' } }, gameLink(game, href)),
      h('td', { dataset: { col: 'role', label: 'Role' }, text: game.role || '—' }),
      h('td', { dataset: { col: 'started', label: 'Started' }, text: when(game.startedAt) }),
      h('td', { dataset: { col: 'ended', label: 'Ended' }, text: when(game.endedAt) }),
      h('td', { dataset: { col: 'end-reason', label: 'End reason' }, text: game.endReason === 'ascended' ? 'ascended (won)' : game.endReason }),
      h('td', { dataset: { col: 'cause', label: 'Cause' }, text: game.death || '—' }),
      h('td', { dataset: { col: 'turns', label: 'Turns' }, text: String(game.turn ?? '—') }),
      h('td', { dataset: { col: 'deepest', label: 'Deepest floor' }, text: String(game.deepest ?? 'unknown') }),
      h('td', { dataset: { col: 'depth', label: 'Final floor' }, text: String(game.depth ?? 'unknown') }),
      h('td', { dataset: { col: 'score', label: 'Score' }, text: String(game.score ?? '—') }),
      h('td', { className: 'harness', dataset: { col: 'harness', label: 'Harness' }, text: game.harness || '—' }),
      h('td', { className: 'model', dataset: { col: 'model', label: 'Model' }, text: game.model || '—' }))))));
}

/** The cells of a game in play after its name and state: started, last
 *  update, turn, deepest / current floor, harness, model. */
export function progressCells(game) {
  return [
    h('td', { dataset: { col: 'started', label: 'Started' }, text: when(game.startedAt) }),
    h('td', { dataset: { col: 'updated', label: 'Last update' }, text: ago(game.updatedAt) }),
    h('td', { dataset: { col: 'turn', label: 'Turn' }, text: String(game.turn ?? '—') }),
    h('td', { dataset: { col: 'depths', label: 'Deepest / now' }, text: `${game.deepest ?? '?'} / ${game.depth ?? '?'}` }),
    h('td', { className: 'harness', dataset: { label: 'Harness' }, text: game.harness || '—' }),
    h('td', { className: 'model', dataset: { label: 'Model' }, text: game.model || '—' }),
  ];
}
