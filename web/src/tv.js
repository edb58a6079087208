// tv.js - the TV (#/tv): every live game in this browser at once, each a
// small live board with its name, role, Dlvl and HP; a card opens the game.
//
// A live game is one some tab has loaded and that has not ended (its Web
// Lock is held: game-controls.js). The grid redraws a card when a tab
// announces a newer snapshot (BroadcastChannel) and on a slow poll while
// visible; like every spectator it calls no tool and changes no game.
import { SESSION_LOCK, heldLocks } from './game-controls.js';
import { TvGrid } from './tv-grid.js';
import { CHANNEL, getSnapshot, listGames } from './store.js';

const POLL_MS = 1500;

/** The games on show: loaded in some tab and not ended, newest first (listGames' order). */
async function liveGames() {
  const [games, held] = await Promise.all([listGames(), heldLocks()]);
  return games.filter((game) => game.lifecycle === 'live' && !game.endedAt && held.has(SESSION_LOCK(game.gameId)));
}

export class TvView {
  constructor(root) {
    this.grid = new TvGrid(root, { home: '#/', href: (gameId) => `#/g/${encodeURIComponent(gameId)}`,
      emptyText: 'No game is being played in this browser right now. Start one on the home page, or start the autopilot.' });
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = () => this.refresh();
    this.timer = setInterval(() => { if (document.visibilityState === 'visible') this.refresh(); }, POLL_MS);
    this.refresh();
  }

  async refresh() {
    if (this.disposed || this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    try {
      const games = await liveGames();
      const snapshots = await Promise.all(games.map((game) => getSnapshot(game.gameId)));
      if (this.disposed) return;
      this.grid.show(games.map((game, index) => ({ game, snapshot: snapshots[index] || null })));
    } finally {
      this.refreshing = false;
      if (this.again && !this.disposed) {
        this.again = false;
        this.refresh();
      }
    }
  }

  dispose() {
    this.disposed = true;
    clearInterval(this.timer);
    this.channel.close();
  }
}
