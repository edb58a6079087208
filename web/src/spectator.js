// spectator.js - the read-only view of one game (#/g/<game-id>).
//
// It renders (game-view.js) the latest snapshot the owning tab's worker stored in
// IndexedDB, and redraws when a tab announces a newer one (BroadcastChannel)
// or on a slow poll while visible. It never calls a tool and has no gameplay
// controls: watching, reloading or opening more tabs cannot change a game.
// Its ownership panel (game-controls.js) loads the game into this tab when
// no worker here has it (a resume by replay, or a read-only observer when
// another tab owns it), and offers Take over, Resume here and Export.
import { h, replace } from './dom.js';
import { GameControls, SESSION_LOCK, heldLocks } from './game-controls.js';
import { refreshAge, renderGame } from './game-view.js';
import { CHANNEL, getGame, getSnapshot } from './store.js';

const POLL_MS = 1000;

/** Whether a live game is loaded in no tab (nobody holds its Web Lock). */
async function ownerTabClosed(record) {
  if (!record || record.lifecycle !== 'live' || !navigator.locks) return false;
  return !(await heldLocks()).has(SESSION_LOCK(record.gameId));
}

export class SpectatorView {
  constructor(root, gameId, { bridge, site }) {
    this.root = root;
    this.gameId = gameId;
    this.revision = null;
    this.record = null;
    this.controls = new GameControls(gameId, { bridge, site });
    this.opened = false;
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (event) => {
      if (event.data && event.data.gameId === gameId) this.refresh();
    };
    this.timer = setInterval(() => {
      if (document.visibilityState === 'visible') this.refresh();
    }, POLL_MS);
    this.refresh();
  }

  async refresh() {
    const [record, snapshot] = await Promise.all([getGame(this.gameId), getSnapshot(this.gameId)]);
    if (!this.opened) {
      // load it into this tab; a game stored in IndexedDB without a page record
      // (the page store was cleared) is listed again once it is loaded
      this.opened = true;
      this.controls.autoOpen(record || (snapshot && snapshot.record));
    }
    if (!record && !snapshot) {
      if (this.revision !== 'missing') {
        this.revision = 'missing';
        replace(this.root, h('section', { className: 'panel notfound' },
          h('h2', { text: 'No such game in this browser' }),
          h('p', {}, 'Game ', h('code', { text: this.gameId }), ' is not among the games this browser has seen.'),
          h('a', { href: '#/', text: '← all games' })));
      }
      return;
    }
    const orphaned = await ownerTabClosed(record);
    const key = `${record?.revision}/${record?.lifecycle}/${snapshot?.revision}/${snapshot?.lifecycle}/${orphaned}`;
    if (key === this.revision) {
      refreshAge(this.root, record);
      this.controls.update(snapshot);
      return;
    }
    this.revision = key;
    const shown = { ...(record || snapshot.record) };
    if (orphaned) shown.lifecycle = 'live (not open in any tab)';
    this.render(shown, snapshot);
    this.controls.update(snapshot);
  }

  gamesChanged() {
    this.controls.update();
  }

  render(record, snapshot) {
    renderGame(this.root, { gameId: this.gameId, record, snapshot, controls: this.controls.element });
  }

  dispose() {
    clearInterval(this.timer);
    this.channel.close();
  }
}
