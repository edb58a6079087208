// spectator.js - the read-only view of one game (#/g/<game-id>), or of
// whichever game is newest and live (#/watch: follow mode).
//
// It renders (game-view.js) the latest snapshot the owning tab's worker stored in
// IndexedDB, and redraws when a tab announces a newer one (BroadcastChannel)
// or on a slow poll while visible. It never calls a tool and has no gameplay
// controls: watching, reloading or opening more tabs cannot change a game.
// Its ownership panel (game-controls.js) loads the game into this tab when
// no worker here has it (a resume by replay, or a read-only observer when
// another tab owns it), and offers Take over, Resume here and Export.
//
// In follow mode the view moves to the newest live game (a game some tab has
// loaded: its Web Lock is held) as soon as one starts, and says why
// ("Ada died on Dlvl 3 → now watching Bo"); until then an ended game stays
// on show with its banner.
import { h, replace } from './dom.js';
import { GameControls, SESSION_LOCK, heldLocks } from './game-controls.js';
import { refreshAge, renderGame } from './game-view.js';
import { CHANNEL, getGame, getSnapshot, listGames } from './store.js';
import { durableRecord } from './durable-records.js';

const POLL_MS = 1000;
const MAP_MODE_KEY = 'nethack:map-mode';

/** The map mode this browser chose last ('ascii' unless tiles were chosen). */
export function storedMapMode() {
  try {
    return localStorage.getItem(MAP_MODE_KEY) === 'tiles' ? 'tiles' : 'ascii';
  } catch {
    return 'ascii';
  }
}

function rememberMapMode(mode) {
  try {
    localStorage.setItem(MAP_MODE_KEY, mode);
  } catch {
    // storage refused (private mode): the choice lasts for this view only
  }
}

/** Whether a live game is loaded in no tab (nobody holds its Web Lock). */
async function ownerTabClosed(record) {
  if (!record || record.lifecycle !== 'live' || !navigator.locks) return false;
  return !(await heldLocks()).has(SESSION_LOCK(record.gameId));
}

/** The newest game some tab has loaded and that has not ended, or null. */
async function newestLiveGame() {
  const [games, held] = await Promise.all([listGames(), heldLocks()]);
  return games.find((game) => game.lifecycle === 'live' && !game.endedAt && held.has(SESSION_LOCK(game.gameId))) || null;
}

/** "Ada died on Dlvl 3 → now watching Bo" (or "Now watching Bo"). */
function followNotice(previous, next) {
  const name = (game) => game.name || '(unnamed)';
  if (!previous) return `Now watching ${name(next)}, the newest live game.`;
  const how = previous.endedAt
    ? `${previous.endReason === 'died' ? 'died' : previous.endReason || 'ended'}${previous.depth ? ` on Dlvl ${previous.depth}` : ''}`
    : 'is no longer the newest game';
  return `${name(previous)} ${how} → now watching ${name(next)}`;
}

export class SpectatorView {
  /** gameId: the game to show, or null to follow the newest live game.
   * @param {HTMLElement} root
   * @param {string | null} gameId
   * @param {{bridge: any, site: Record<string, any>, notes?: (gameId: string) => string[] | null,
   *          autopilot?: {playing: (gameId: string) => boolean, play: (gameId: string) => void, stop: () => void} | null}} options
   *   notes: the autopilot's notes while it plays the game in this tab; autopilot: its play/stop hook */
  constructor(root, gameId, { bridge, site, notes = () => null, autopilot = null }) {
    this.root = root;
    this.bridge = bridge;
    this.site = site;
    this.notes = notes;
    this.autopilot = autopilot;
    this.follow = gameId === null;
    // set by show(gameId), before anything is drawn (draw runs only with a gameId)
    /** @type {string | null} */ this.gameId;
    /** @type {GameControls} */ this.controls;
    this.notice = null;
    this.mapMode = storedMapMode();
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (event) => {
      if (this.follow || (event.data && event.data.gameId === this.gameId)) this.refresh();
    };
    this.timer = setInterval(() => {
      if (document.visibilityState === 'visible') this.refresh();
    }, POLL_MS);
    if (gameId) this.show(gameId);
    this.refresh();
  }

  /** Start showing `gameId` (again from nothing: its own controls, no drawing yet). */
  show(gameId) {
    this.gameId = gameId;
    this.revision = null;
    this.record = null;
    this.opened = false;
    this.controls = new GameControls(gameId, { bridge: this.bridge, site: this.site, autopilot: this.autopilot });
  }

  async refresh() {
    if (this.disposed) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    try {
      if (this.follow) await this.followNewest();
      if (this.gameId) await this.draw();
    } finally {
      this.refreshing = false;
      if (this.again) {
        this.again = false;
        this.refresh();
      }
    }
  }

  async followNewest() {
    const newest = await newestLiveGame();
    if (this.disposed) return;
    if (newest && newest.gameId !== this.gameId) {
      const previous = this.gameId
        ? (await durableRecord(this.gameId).catch(() => null)) || await getGame(this.gameId) : null;
      this.notice = followNotice(previous, newest);
      this.show(newest.gameId);
    } else if (!newest && !this.gameId && this.revision !== 'waiting') {
      this.revision = 'waiting';
      this.root.dataset.gameId = '';
      replace(this.root, h('section', { className: 'panel', dataset: { panel: 'follow-waiting' } },
        h('h2', { text: 'Waiting for a live game' }),
        h('p', { text: 'This view follows the newest game being played in this browser. Start the autopilot, '
          + 'start a game from the home page, or let an agent create one: it appears here.' }),
        h('a', { href: '#/', text: '← all games' })));
    }
  }

  async draw() {
    const gameId = /** @type {string} refresh draws only once there is a game */ (this.gameId);
    const [record, snapshot] = await Promise.all([getGame(gameId), getSnapshot(gameId)]);
    if (gameId !== this.gameId || this.disposed) return; // moved on meanwhile
    const known = record || (snapshot && snapshot.record);
    this.controls.ended = Boolean(known && known.endedAt) || Boolean(snapshot && snapshot.end);
    if (!this.opened) {
      // load it into this tab; a game stored in IndexedDB without a page record
      // (the page store was cleared) is listed again once it is loaded
      this.opened = true;
      this.controls.autoOpen(known);
    }
    if (!record && !snapshot) {
      if (this.revision !== 'missing') {
        this.revision = 'missing';
        replace(this.root, h('section', { className: 'panel notfound' },
          h('h2', { text: 'No such game in this browser' }),
          h('p', {}, 'Game ', h('code', { text: gameId }), ' is not among the games this browser has seen.'),
          h('a', { href: '#/', text: '← all games' })));
      }
      return;
    }
    const orphaned = await ownerTabClosed(record);
    // an ended game's record is the one Python computed (GameRecord), not re-derived here
    const ended = this.controls.ended ? await durableRecord(gameId).catch(() => null) : null;
    if (this.disposed) return;
    // this tab's autopilot's own notes, else those the owning tab published with the snapshot
    const local = this.notes(gameId);
    const published = snapshot && snapshot.autopilot && Array.isArray(snapshot.autopilot.notes) ? snapshot.autopilot : null;
    const notes = local || (published ? published.notes : null);
    const notesFrom = local ? 'here' : published ? (published.playing ? 'owner' : 'owner-stopped') : null;
    const key = `${record?.revision}/${record?.lifecycle}/${snapshot?.revision}/${snapshot?.lifecycle}/${orphaned}/${Boolean(ended)}`
      + `/${this.mapMode}/${this.notice}/${notesFrom}/${notes ? notes.join('\n') : ''}`;
    if (key === this.revision) {
      refreshAge(this.root, record);
      this.controls.update(snapshot);
      return;
    }
    this.revision = key;
    const recorded = Object.fromEntries(Object.entries(ended || {}).filter(([, value]) => value !== null && value !== undefined));
    const shown = { ...(record || snapshot.record), ...recorded };
    this.render(shown, snapshot, orphaned ? 'stored' : null, notes, notesFrom);
    this.controls.update(snapshot);
  }

  gamesChanged() {
    if (this.controls) this.controls.update();
  }

  render(record, snapshot, lifecycle, notes, notesFrom) {
    const notice = this.follow
      ? h('p', { className: 'follow-notice', role: 'status', dataset: { field: 'follow-notice' },
                 text: this.notice || 'Following the newest live game.' })
      : null;
    renderGame(this.root, { gameId: /** @type {string} (draw) */ (this.gameId), record, snapshot, controls: this.controls.element, lifecycle,
                            notice, mapMode: this.mapMode, notes, notesFrom,
                            onMapMode: (mode) => this.setMapMode(mode) });
    this.root.dataset.follow = String(this.follow);
  }

  setMapMode(mode) {
    this.mapMode = mode;
    rememberMapMode(mode);
    this.refresh();
  }

  /** Stop drawing: the route moved on, and a draw still awaiting storage must
   *  not paint over the next view (it shares the root element). */
  dispose() {
    this.disposed = true;
    clearInterval(this.timer);
    this.channel.close();
    const live = document.getElementById('live-summary');
    if (live) live.textContent = ''; // no game on show: nothing to announce
  }
}
