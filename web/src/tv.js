// tv.js - the TV (#/tv): every live game in this browser at once, each a
// small live board with its name, role, Dlvl and HP; a card opens the game.
//
// A live game is one some tab has loaded and that has not ended (its Web
// Lock is held: game-controls.js). The grid redraws a card when a tab
// announces a newer snapshot (BroadcastChannel) and on a slow poll while
// visible; like every spectator it calls no tool and changes no game.
import { h, replace } from './dom.js';
import { SESSION_LOCK, heldLocks } from './game-controls.js';
import { renderMap } from './map.js';
import { CHANNEL, getSnapshot, listGames } from './store.js';

const POLL_MS = 1500;

/** The games on show: loaded in some tab and not ended, newest first (listGames' order). */
async function liveGames() {
  const [games, held] = await Promise.all([listGames(), heldLocks()]);
  return games.filter((game) => game.lifecycle === 'live' && !game.endedAt && held.has(SESSION_LOCK(game.gameId)));
}

function card(game, snapshot) {
  const observation = snapshot?.observation || {};
  const v = observation.vitals || {};
  const name = snapshot?.session?.name || game.name || '(unnamed)';
  const role = snapshot?.session?.role || game.role || '';
  const depth = observation.depth ?? game.depth;
  const hp = v.hp !== undefined ? `HP ${v.hp}/${v.hpMax}` : 'HP ?';
  const facts = [role, `Dlvl ${depth ?? '?'}`, hp, `T:${observation.turn ?? game.turn ?? '?'}`].filter(Boolean).join(' · ');
  return h('li', { className: 'tv-card panel', dataset: { gameId: game.gameId } },
    h('a', { href: `#/g/${encodeURIComponent(game.gameId)}`, className: 'tv-link' }, // its name is its text (name, facts)
      h('div', { className: 'tv-board', 'aria-hidden': 'true' },
        snapshot ? renderMap(snapshot.map.rows, observation.position) : h('p', { className: 'muted', text: 'no board yet' })),
      h('div', { className: 'tv-facts' }, h('strong', { className: 'name', dataset: { field: 'tv-name' }, text: name }),
        ' ', h('span', { dataset: { field: 'tv-facts' }, text: facts }))));
}

export class TvView {
  constructor(root) {
    this.root = root;
    this.cards = new Map(); // gameId -> {key, element}
    this.grid = h('ul', { className: 'tv-grid', dataset: { list: 'tv' } });
    this.empty = h('p', { className: 'muted', dataset: { field: 'tv-empty' },
      text: 'No game is being played in this browser right now. Start one on the home page, or start the autopilot.' });
    replace(root, h('a', { className: 'back', href: '#/', text: '← all games' }),
      h('h2', { className: 'tv-title', text: 'TV: every live game' }), this.empty, this.grid);
    root.dataset.gameId = '';
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
      const shown = new Set();
      games.forEach((game, index) => {
        const snapshot = snapshots[index];
        const key = `${snapshot?.revision}/${game.revision}/${game.depth}`;
        shown.add(game.gameId);
        const drawn = this.cards.get(game.gameId);
        if (drawn && drawn.key === key) return;
        const element = card(game, snapshot);
        if (drawn) drawn.element.replaceWith(element);
        else this.grid.append(element);
        this.cards.set(game.gameId, { key, element });
      });
      for (const [gameId, drawn] of this.cards) {
        if (!shown.has(gameId)) {
          drawn.element.remove();
          this.cards.delete(gameId);
        }
      }
      this.empty.hidden = games.length > 0;
      this.root.dataset.live = String(games.length);
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
