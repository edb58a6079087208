// tv.js (server mode) - the TV of the native MCP server (/#/tv): every game
// this server is playing as a small live board (tv-grid.js), linked to its
// page (/g/<id>).
//
// Which games: /api/recent's `live` list (the games loaded here), polled
// every 2 s; a game that ended (still loaded, lifecycle `ended`) leaves the
// grid. Each game's board: its state route (/api/games/<id>/state), polled
// every 1.5 s with If-None-Match, so a game that did not move costs a 304.
// Polls, not streams: a stream per card would use up the browser's six
// connections per host with a handful of games. Only GET: watching sends
// no game anything. A hidden tab does not poll (poller.js).
import { TvGrid } from '../tv-grid.js';
import { Poller } from './poller.js';

const RECENT_MS = 2000;
const BOARD_MS = 1500;

export class ServerTv {
  constructor(root, connection) {
    this.grid = new TvGrid(root, { home: '/', href: (gameId) => `/g/${encodeURIComponent(gameId)}`,
      title: 'TV: every game this server is playing',
      emptyText: 'No game is being played right now. An agent starts one with session {"action":"create"}.' });
    /** @type {Record<string, any>[]} the live games, newest first */
    this.games = [];
    /** @type {Map<string, Poller>} each live game's state poller */
    this.pollers = new Map();
    /** @type {Map<string, Record<string, any>>} each live game's latest state */
    this.states = new Map();
    this.recent = new Poller('/api/recent', {
      interval: RECENT_MS, onConnection: connection,
      onResponse: (status, body) => { if (status === 200 && body) this.follow(body.live || []); return true; },
    });
  }

  /** The live list was polled: start and stop the boards' pollers to match it. */
  follow(live) {
    this.games = live.filter((game) => game.lifecycle === 'live' && !game.endedAt);
    const ids = new Set(this.games.map((game) => game.gameId));
    for (const [gameId, poller] of this.pollers) {
      if (!ids.has(gameId)) {
        poller.stop();
        this.pollers.delete(gameId);
        this.states.delete(gameId);
      }
    }
    for (const { gameId } of this.games) {
      if (this.pollers.has(gameId)) continue;
      this.pollers.set(gameId, new Poller(`/api/games/${encodeURIComponent(gameId)}/state`, {
        interval: BOARD_MS,
        onResponse: (status, body) => {
          if (status === 200 && body && this.pollers.has(gameId)) {
            this.states.set(gameId, body);
            this.draw();
          }
          return status === 200 || status === 304; // gone or unknown: the next live list drops it
        },
      }));
    }
    this.draw();
  }

  draw() {
    // a game whose own state already says it ended leaves before the live list catches up
    const shown = this.games.filter((game) => !this.states.get(game.gameId)?.end);
    this.grid.show(shown.map((game) => ({ game, snapshot: this.states.get(game.gameId) || null })));
  }

  dispose() {
    this.recent.stop();
    for (const poller of this.pollers.values()) poller.stop();
    this.pollers.clear();
  }
}
