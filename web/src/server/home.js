// home.js (server mode) - the native MCP server's root page: what this is,
// how to connect an MCP client, the games being played here, and the ten
// most recently completed games (GET /api/recent, in seed 002's order).
import { h, replace } from '../dom.js';
import { gameLink, progressCells, recordsTable } from '../records.js';
import { badgeState } from '../states.js';
import { Poller } from './poller.js';

const RECENT_MS = 2000;
const pageOf = (gameId) => `/g/${encodeURIComponent(gameId)}`;
const CLIENT_CONFIG = `{"mcpServers": {"nethack": {"command": "/path/to/repo/.venv/bin/python",
                            "args": ["-m", "nethack_webmcp.mcp"],
                            "cwd": "/path/to/repo"}}}`;

function liveTable(games) {
  if (!games.length) return h('p', { className: 'muted', text: 'No game is being played right now. An agent starts one with session {"action":"create"}.' });
  return h('table', { className: 'games', dataset: { list: 'live' } },
    h('thead', {}, h('tr', {}, ['Character', 'State', 'Started', 'Last update', 'Turn', 'Deepest / now', 'Harness', 'Model']
      .map((title) => h('th', { text: title })))),
    h('tbody', {}, games.map((game) => h('tr', { dataset: { gameId: game.gameId } },
      h('td', {}, gameLink(game, pageOf)),
      h('td', {}, h('span', { className: `badge ${badgeState(game.lifecycle)}`, text: game.lifecycle === 'ended' ? 'ended' : game.gate || game.lifecycle })),
      progressCells(game)))));
}

export class ServerHome {
  constructor(root, connection) {
    this.root = root;
    this.liveBox = h('div', { className: 'games-box' });
    this.recordsBox = h('div', { className: 'records-box' });
    this.drawn = null;
    replace(root,
      h('section', { className: 'intro panel' },
        h('h2', { text: 'Real NetHack 3.6.7, played by software agents' }),
        h('p', { text: 'This is the read-only spectator of a NetHack MCP server (python -m nethack_webmcp.mcp) on this machine. '
          + 'An MCP client (a desktop agent) plays through eleven tools over stdio; here you watch its games live, '
          + 'and the records of the games that ended. Watching never changes a game.' }),
        h('h3', { text: 'Connect an MCP client' }),
        h('p', { text: 'Add the server to the client\'s MCP configuration, for example:' }),
        h('pre', { className: 'passage', text: CLIENT_CONFIG }),
        h('p', { text: 'The agent starts with help, then session {"action":"create"}; both results say where to watch.' })),
      h('section', { className: 'panel' }, h('h2', { text: 'Games being played' }),
        h('p', {}, h('a', { href: '#/tv', dataset: { control: 'tv' }, text: 'TV: every game being played, at once →' })),
        this.liveBox),
      h('section', { className: 'panel' }, h('h2', { text: 'Ten most recently completed games' }), this.recordsBox));
    this.poller = new Poller('/api/recent', {
      interval: RECENT_MS, onConnection: connection,
      onResponse: (status, body) => { if (status === 200 && body) this.draw(body); return true; },
    });
  }

  draw(overview) {
    const key = JSON.stringify(overview);
    if (key === this.drawn) return;
    this.drawn = key;
    replace(this.liveBox, liveTable(overview.live || []));
    replace(this.recordsBox, recordsTable(overview.records || [], pageOf));
  }

  dispose() {
    this.poller.stop();
  }
}
