// page-replay-panel.js - the game page's timeline: the shared widget
// (timeline/timeline.js) over the page's source (page-timeline-source.js:
// the game's journal replayed in the worker from IndexedDB checkpoints).
//
// Opened on demand (a replay costs one verified pass the first time a game
// is opened; later opens reuse the stored checkpoints), or at once when the
// address names a move: `#/g/<id>#move=N` opens move N, paused; a paused move
// is written back into the address so it can be shared.
import { h, replace } from './dom.js';
import { pageTimelineSource } from './page-timeline-source.js';
import { TimelineView } from './timeline/timeline.js';

export class PageReplayPanel {
  /** @param {HTMLElement} host where the panel goes
   *  @param {(action: string, fields: Record<string, any>) => Promise<any>} replay the worker's replay operation
   *  @param {string} gameId
   *  @param {number | null} move the move the address names, if any */
  constructor(host, replay, gameId, move) {
    this.replay = replay;
    this.gameId = gameId;
    this.host = host;
    /** @type {TimelineView | null} */
    this.view = null;
    /** @type {any} */
    this.source = null;
    this.disposed = false;
    this.status = h('p', { className: 'muted', dataset: { field: 'replay-status' } });
    this.body = h('div', { dataset: { field: 'replay-timeline' } });
    const button = h('button', { type: 'button', dataset: { control: 'open-timeline' }, text: 'Open the timeline' });
    button.addEventListener('click', () => { button.remove(); this.open(null); });
    this.element = h('section', { className: 'panel page-timeline', dataset: { panel: 'timeline' } },
      h('h2', { text: 'Timeline' }), this.status, button, this.body);
    host.append(this.element);
    if (move !== null) {
      button.remove();
      this.open(move);
    }
  }

  async open(move) {
    this.status.textContent = 'Opening the replay: every recorded move is checked…';
    try {
      this.source = await pageTimelineSource(this.replay, this.gameId);
    } catch (error) {
      this.status.dataset.state = 'refused';
      this.status.textContent = `The replay could not be opened: ${error && error.message ? error.message : error}`;
      return;
    }
    if (this.disposed) {
      this.source.close();
      return;
    }
    this.status.textContent = `${this.source.moveCount()} moves, each frame replayed and verified in this page.`;
    replace(this.body);
    this.view = new TimelineView(this.body, this.source, {
      move,
      onMove: (at, paused) => {
        const base = `#/g/${encodeURIComponent(this.gameId)}`;
        const hash = paused ? `${base}#move=${at}` : base;
        if (location.hash !== hash) history.replaceState(null, '', hash);
      },
    });
  }

  dispose() {
    this.disposed = true;
    if (this.view) this.view.dispose();
    if (this.source) this.source.close();
    this.element.remove();
    this.host.remove();
  }
}
