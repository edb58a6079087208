// spectator.js (server mode) - the read-only view of one game of the native
// MCP server (/g/<sessionId>): the same rendering as the page's spectator
// (game-view.js), fed by GET /api/games/<id>/state instead of IndexedDB.
// 200: a new revision, drawn; 304: unchanged; 410: the game is over and its
// live state is gone, so its record summary is drawn and polling stops;
// 404: unknown (stop) or stored but not being played here (keep looking,
// slowly). No controls: watching cannot change a game.
import { h, replace } from '../dom.js';
import { refreshAge, renderGame } from '../game-view.js';
import { Poller } from './poller.js';

const NOT_LIVE_MS = 5000;

export class ServerSpectator {
  constructor(root, gameId, connection) {
    this.root = root;
    this.gameId = gameId;
    this.record = null;
    this.poller = new Poller(`/api/games/${encodeURIComponent(gameId)}/state`, {
      onResponse: (status, body) => this.show(status, body),
      onConnection: connection,
    });
  }

  show(status, body) {
    if (status === 304) {
      refreshAge(this.root, this.record);
      return true;
    }
    if (status === 200 && body) {
      this.record = body.record;
      renderGame(this.root, { gameId: this.gameId, record: body.record, snapshot: body, home: '/' });
      return true;
    }
    if (status === 410 && body && body.record) {
      renderGame(this.root, { gameId: this.gameId, record: body.record, snapshot: null, home: '/',
                              missing: 'The game is over and the MCP server has closed it: its record remains.' });
      return false;
    }
    const notLive = body && body.error === 'notLive';
    this.root.dataset.gameId = this.gameId;
    replace(this.root, h('section', { className: 'panel notfound', dataset: { state: notLive ? 'not-live' : 'not-found' } },
      h('h2', { text: notLive ? 'Not being played here right now' : 'No such game' }),
      h('p', {}, 'Game ', h('code', { text: this.gameId }), notLive
        ? ' is stored but this MCP server has not loaded it; it appears here once an agent resumes it.'
        : ' is unknown to this MCP server.'),
      h('a', { href: '/', text: '← all games' })));
    if (notLive) this.poller.schedule(NOT_LIVE_MS);
    return false;
  }

  dispose() {
    this.poller.stop();
  }
}
