// home.js - the home view: what this page is, how an agent connects, the
// autopilot switch, this browser's games (with Resume for a stored game no
// tab has open), importing a game from a file, and the ten most recent records.
import { h, replace } from './dom.js';
import { SESSION_LOCK } from './game-controls.js';
import { gameLink, progressCells, recordsTable } from './records.js';
import { CHANNEL, listGames } from './store.js';
import { recentDurableRecords } from './durable-records.js';
import { startForm } from './start-form.js';
import { badgeState, stateLabel } from './states.js';

// What a refused import means, in plain words (the code and message stay in a details line).
const IMPORT_REFUSALS = {
  sessionExists: 'This game is already in this browser.',
  stateMismatch: 'Its recorded moves do not lead to the state the file says it reached: the file was changed or cut short.',
  invalidDocument: 'This is not a game file exported from this page.',
  engineMismatch: 'It was recorded by another version of the game, so it cannot be replayed here.',
};

const pageOf = (gameId) => `#/g/${encodeURIComponent(gameId)}`;
const link = (game) => gameLink(game, pageOf);

/** A stored game that no tab has open (nobody holds its Web Lock) and that has not ended. */
function resumable(game, heldLocks) {
  return game.lifecycle !== 'ended' && !heldLocks.has(SESSION_LOCK(game.gameId));
}

/** What a game's lifecycle means from this tab (states.js). */
function lifecycle(game, heldLocks) {
  if (resumable(game, heldLocks)) return 'stored';
  return game.lifecycle === 'closed' ? 'live' : game.lifecycle;
}

function gamesTable(games, heldLocks, onResume) {
  if (!games.length) return h('p', { className: 'muted', text: 'No games yet. Start the autopilot, or let an agent call the session tool.' });
  return h('div', { className: 'table-scroll' }, h('table', { className: 'games cards', dataset: { list: 'games' } },
    h('thead', {}, h('tr', {}, ['Character', 'State', 'Started', 'Last update', 'Turn', 'Deepest / now', 'Harness', 'Model', '']
      .map((title) => h('th', { scope: 'col', text: title })))),
    h('tbody', {}, games.map((game) => h('tr', { dataset: { gameId: game.gameId } },
      h('td', { className: 'primary' }, link(game)),
      h('td', { dataset: { label: 'State' } }, h('span', { className: `badge ${badgeState(lifecycle(game, heldLocks))}`,
                              text: stateLabel(lifecycle(game, heldLocks)) })),
      progressCells(game),
      h('td', { className: 'action' }, resumable(game, heldLocks)
        ? h('button', { type: 'button', dataset: { control: 'resume', gameId: game.gameId }, text: 'Resume',
            title: 'Load this game in this tab: its journal is replayed on a fresh engine.',
            onclick: () => onResume(game.gameId) })
        : null))))));
}

export class HomeView {
  constructor(root, { webmcpKind, autopilotPanel, bridge, create, playWithAutopilot }) {
    this.root = root;
    this.bridge = bridge;
    this.gamesBox = h('div', { className: 'games-box' });
    this.recordsBox = h('div', { className: 'records-box' });
    this.importResult = h('p', { className: 'muted', dataset: { field: 'import-result' },
      text: 'A file exported from this page (or by python -m nethack_webmcp.export on the same engine build); '
        + 'or drop the file anywhere on this page to import it and open its replay.' });
    const chooser = h('input', { type: 'file', accept: '.json,application/json', dataset: { control: 'import' },
      onchange: () => { const file = chooser.files && chooser.files[0]; chooser.value = ''; this.importFile(file); } });
    replace(root,
      h('section', { className: 'intro panel' },
        h('h2', { text: 'Watch software agents play NetHack' }),
        h('p', { text: 'This page runs the real game NetHack 3.6.7 inside your browser tab. Programs (AI agents) play it '
          + 'through a set of tools this page offers; you can watch any game here, follow the newest one, '
          + 'or start one yourself below. Watching never changes a game.' }),
        h('p', {}, h('a', { href: '#/watch', dataset: { control: 'watch' }, text: 'Watch the newest live game →' }),
          ' · ', h('a', { href: '#/tv', dataset: { control: 'tv' }, text: 'TV: every live game at once →' })),
        h('details', { className: 'developer' }, h('summary', { text: 'For developers: how agents connect' }),
          h('p', { text: 'NetHack runs in WebAssembly and the agent tools in Python (Pyodide), all inside this tab. '
            + 'The page registers eleven WebMCP tools (session, observe, interact, use, travel, equipment, inventory, plan, lookup, respond, help): '
            + 'an agent in this browser can list and call them. Start with help, then session {"action":"create"}.' }),
          h('p', {}, 'WebMCP: ', h('strong', { dataset: { field: 'webmcp' }, text: webmcpKind === 'native'
            ? 'the browser\'s native document.modelContext' : 'the @mcp-b/webmcp-polyfill (this browser has no native WebMCP)' }),
            '. Desktop MCP clients can use the same tools over stdio: see the README.'))),
      h('section', { className: 'panel start' }, h('h2', { text: 'Start a game' }),
        h('p', { className: 'muted', text: 'Leave a choice on random to let the game pick. The new game is played by '
          + 'an agent (through the tools) or by the autopilot; this page sends no moves itself.' }),
        startForm({ create, playWithAutopilot })),
      autopilotPanel,
      h('section', { className: 'panel' }, h('h2', { text: 'Games in this browser' }), this.gamesBox),
      h('section', { className: 'panel import' }, h('h2', { text: 'Import a game' }),
        h('label', {}, 'Game file: ', chooser), this.importResult),
      h('section', { className: 'panel' }, h('h2', { text: 'Ten most recently completed games' }), this.recordsBox));
    this.dropTarget = root;
    this.onDragOver = (event) => this.dragOver(event);
    this.onDrop = (event) => this.drop(event);
    root.addEventListener('dragover', this.onDragOver);
    root.addEventListener('drop', this.onDrop);
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = () => this.schedule();
    this.timer = setInterval(() => this.refresh(), 2000);
    this.refresh();
  }

  schedule() {
    if (this.pending) return;
    this.pending = setTimeout(() => { this.pending = null; this.refresh(); }, 250);
  }

  async refresh() {
    const [games, records, locks] = await Promise.all([listGames(), recentDurableRecords(10),
      navigator.locks ? navigator.locks.query() : Promise.resolve({ held: [] })]);
    const held = new Set((locks.held || []).map((lock) => lock.name));
    const key = JSON.stringify([games, records, [...held].sort()]);
    if (key === this.drawn) return; // unchanged: keep the buttons under the pointer
    this.drawn = key;
    replace(this.gamesBox, gamesTable(games, held, (gameId) => this.resume(gameId)));
    replace(this.recordsBox, recordsTable(records, pageOf));
  }

  /** Resume a stored game in this tab, then show it. */
  async resume(gameId) {
    location.hash = `#/g/${encodeURIComponent(gameId)}`; // the game view loads it (and shows why not, if not)
  }

  /** A file dragged over the home page may be dropped (the browser would otherwise open it). */
  dragOver(event) {
    if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }

  /** A dropped game file is imported exactly as the picker imports it, then opened as a replay. */
  async drop(event) {
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    const sessionId = await this.importFile(file);
    if (sessionId) location.hash = `#/g/${encodeURIComponent(sessionId)}#move=0`; // its timeline, from the start
  }

  /** Import one exported game file (verified by replay); its sessionId, or null when refused. */
  async importFile(file) {
    if (!file) return null;
    this.importResult.dataset.state = 'importing';
    this.importResult.textContent = `Importing ${file.name}: replaying its journal to verify it…`;
    let result;
    try {
      await this.bridge.ready;
      result = await this.bridge.importGame(await file.text());
    } catch (error) {
      result = { error: { code: 'failed', message: String(error && error.message ? error.message : error) } };
    }
    if (result.error) {
      this.importResult.dataset.state = 'refused';
      this.importResult.dataset.code = result.error.code;
      replace(this.importResult, h('strong', { text: 'Not imported. ' }),
        h('span', { text: IMPORT_REFUSALS[result.error.code] || 'The file could not be imported.' }),
        h('details', {}, h('summary', { text: 'Details' }),
          h('code', { text: `${result.error.code}: ${result.error.message}` })));
      return null;
    }
    this.importResult.dataset.state = 'imported';
    this.importResult.dataset.gameId = result.sessionId;
    replace(this.importResult, `Imported: its ${result.replayed} recorded moves were replayed`,
      result.verified ? ' and reached the exported state exactly. ' : ' (the file carried no state to check against). ',
      h('a', { href: `#/g/${encodeURIComponent(result.sessionId)}`, text: 'Open it' }));
    this.drawn = null;
    this.refresh();
    return result.sessionId;
  }

  dispose() {
    this.dropTarget.removeEventListener('dragover', this.onDragOver);
    this.dropTarget.removeEventListener('drop', this.onDrop);
    clearInterval(this.timer);
    clearTimeout(this.pending);
    this.channel.close();
  }
}
