// spectator.js (server mode) - the read-only view of one game of the native
// MCP server (/g/<sessionId>): the same rendering as the page's spectator
// (game-view.js), fed by the server instead of IndexedDB.
//
// While the tab is visible it keeps one stream open (EventSource on
// /api/games/<id>/events: the state at once, then at most one newer state
// per 250 ms while the agent plays). A dropped connection is reopened
// after 1, 2, 4, 8, then every 10 s (the header says so). A hidden tab
// closes its stream and opens it again when shown. When the stream is refused or says `gone`, the state route
// (/api/games/<id>/state) says why: 410, the game is over and its live
// state is gone, so its record summary is drawn; 404, unknown (stop) or
// stored but not being played here (its recent messages, from the stored
// receipts the answer carries; look again in 5 s). No controls:
// watching cannot change a game.
//
// Under the game, its timeline (timeline/timeline.js over server/timeline-source.js):
// every move of the game, live or ended, from the server's GET routes.
// `#move=N` in the address opens move N (paused); a paused move is written
// back into the address (replaceState), so the address shares what is shown.
import { h, replace } from '../dom.js';
import { renderGame } from '../game-view.js';
import { TimelineView } from '../timeline/timeline.js';
import { ServerTimelineSource } from './timeline-source.js';

const NOT_LIVE_MS = 5000;
const BACKOFF_MS = [1000, 2000, 4000, 8000, 10_000];

const HISTORY_SHOWN = 10;
const MOVE_HASH = /^#move=(\d{1,9})$/;

/** The move the address asks for (`#move=N`), or null. */
export function hashMove() {
  const found = MOVE_HASH.exec(location.hash);
  return found ? Number(found[1]) : null;
}

/** A stored game's recent events (from its stored receipts: the server
 *  loads nothing to show them), newest last, as text. */
function storedHistory(events) {
  const lines = (Array.isArray(events) ? events : [])
    .map((event) => (event.type === 'passage' ? (event.lines || []).join(' ') : event.text))
    .filter((text) => typeof text === 'string' && text.trim())
    .slice(-HISTORY_SHOWN);
  if (!lines.length) return [];
  return [h('h3', { text: 'Recent messages' }),
    h('ol', { className: 'log', tabindex: '0', dataset: { field: 'history' } }, lines.map((text) => h('li', { text })))];
}

export class ServerSpectator {
  constructor(root, gameId, connection) {
    this.main = root;
    // the game (redrawn by every state) and its timeline (kept: its focus and position survive redraws)
    this.root = h('div', { className: 'game-view' });
    this.timelineHost = h('div', { className: 'timeline-host' });
    replace(root, this.root, this.timelineHost);
    this.gameId = gameId;
    /** @type {TimelineView | null} */
    this.timeline = null;
    this.disposed = false;
    this.openTimeline();
    this.connection = connection;
    this.base = `/api/games/${encodeURIComponent(gameId)}`;
    this.source = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.failures = 0;
    this.done = false;
    this.visibility = () => (document.visibilityState === 'visible' ? this.open() : this.close());
    document.addEventListener('visibilitychange', this.visibility);
    this.visibility();
  }

  open() {
    if (this.source || this.done || document.visibilityState !== 'visible') return;
    clearTimeout(this.timer);
    const source = new EventSource(`${this.base}/events`);
    this.source = source;
    source.onopen = () => { this.failures = 0; this.connection({ ok: true }); };
    source.onmessage = (event) => this.draw(JSON.parse(event.data));
    source.addEventListener('gone', () => { this.close(); this.explain(); });
    source.onerror = () => {
      const refused = source.readyState === EventSource.CLOSED; // answered, but not with a stream
      this.close();
      if (refused) {
        this.explain(); // the state route says why
        return;
      }
      const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
      this.failures += 1;
      this.connection({ ok: false, retryMs: delay, error: 'the connection dropped' });
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
  }

  draw(state) {
    this.connection({ ok: true });
    renderGame(this.root, { gameId: this.gameId, record: state.record, snapshot: state, home: '/' });
    this.mirror();
  }

  /** The page's main element carries what the game view says of itself (revision, game, ended). */
  mirror() {
    Object.assign(this.main.dataset, { revision: this.root.dataset.revision || '', gameId: this.gameId,
                                       ended: this.root.dataset.ended || 'false' });
  }

  /** The timeline, once the server knows the game (an unknown one has none). */
  async openTimeline() {
    const source = new ServerTimelineSource(this.gameId);
    try {
      await source.open();
    } catch {
      source.close();
      return; // no such game: the page says so (explain)
    }
    if (this.disposed) { source.close(); return; }
    this.timeline = new TimelineView(this.timelineHost, source, {
      move: hashMove(),
      onMove: (move, paused) => {
        const hash = paused ? `#move=${move}` : '';
        if (location.hash !== hash) history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);
      },
    });
    /** @type {any} */ (window).nethackTimeline = this.timeline; // the e2e tests' handle
  }

  /** The address asked for another move (`#move=N` typed or followed). */
  follow() {
    const move = hashMove();
    if (move !== null && this.timeline) this.timeline.seek(move);
  }

  /** The stream is refused or over: the state route says why. */
  async explain() {
    let response;
    let body = null;
    try {
      response = await fetch(`${this.base}/state`, { cache: 'no-store' });
      body = await response.json().catch(() => null);
    } catch (error) {
      this.connection({ ok: false, retryMs: NOT_LIVE_MS, error: String(error && error.message || error) });
      this.timer = setTimeout(() => this.open(), NOT_LIVE_MS);
      return;
    }
    if (response.status === 200 && body) {
      this.draw(body);
      this.open();
    } else if (response.status === 410 && body && body.record) {
      this.done = true;
      renderGame(this.root, { gameId: this.gameId, record: body.record, snapshot: null, home: '/',
                              missing: 'The game is over and the MCP server has closed it: its record remains.' });
      this.mirror();
    } else {
      const notLive = body && body.error === 'notLive';
      this.done = !notLive;
      this.root.dataset.gameId = this.gameId;
      this.mirror();
      replace(this.root, h('section', { className: 'panel notfound', dataset: { state: notLive ? 'not-live' : 'not-found' } },
        h('h2', { text: notLive ? 'Not being played here right now' : 'No such game' }),
        h('p', {}, 'Game ', h('code', { text: this.gameId }), notLive
          ? ' is stored but this MCP server has not loaded it; it appears here once an agent resumes it.'
          : ' is unknown to this MCP server.'),
        ...(notLive ? storedHistory(body.events) : []),
        h('a', { href: '/', text: '← all games' })));
      if (notLive) this.timer = setTimeout(() => this.open(), NOT_LIVE_MS);
    }
  }

  dispose() {
    this.disposed = true;
    this.done = true;
    if (this.timeline) this.timeline.dispose();
    this.close();
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.visibility);
  }
}
