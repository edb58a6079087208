// timeline.js - the timeline of one game: live / paused / playing at 1, 2, 5,
// 10 moves/s or max, a "live" button back to the present, a scrubber over the
// whole game with markers and the HP and depth chart under it, the frame at
// the chosen move, and the move list (the inputs grouped by the tool call
// that made them). It reads the game through a TimelineSource (source.js):
// the server spectator's (server/timeline-source.js) or the page's.
//
// Every move is shown when playing: the next move is drawn only after the
// current one was (frames are fetched ahead, buffer.js), so an agent faster
// than the chosen speed leaves the view behind the present, by a count the
// widget shows, until "live" (or End) returns to it. Game text is set with
// textContent only (dom.js's h), never parsed.
import { h, replace } from '../dom.js';
import { FrameBuffer } from './buffer.js';
import { Chart } from './chart.js';
import { keyAction } from './keys.js';
import { markers } from './markers.js';
import { SPEEDS, behind, nextDelay, reduce, start } from './playback.js';

const LIST_AROUND = 5; // calls listed before and after the current one
const REDRAW_MS = 1000; // markers and chart of a growing game: at most once a second

/** @param {number} speed */
const speedName = (speed) => (Number.isFinite(speed) ? `${speed} moves/s` : 'max');

/** @param {import('./source.js').TimelineCall} call */
function callFacts(call) {
  const facts = [];
  if (call.turn !== null && call.turn !== undefined) facts.push(`T:${call.turn}`);
  if (call.depth !== null && call.depth !== undefined) facts.push(`Dlvl ${call.depth}`);
  if (call.hp !== null && call.hp !== undefined) facts.push(`HP ${call.hp}/${call.hpMax}`);
  return facts.join(' · ');
}

export class TimelineView {
  /** @param {HTMLElement} host
   *  @param {import('./source.js').TimelineSource} source
   *  @param {{move?: number | null, onMove?: (move: number, paused: boolean) => void}} [options] */
  constructor(host, source, { move = null, onMove = () => {} } = {}) {
    this.source = source;
    this.onMove = onMove;
    this.state = start(source.moveCount(), source.live, move);
    this.buffer = new FrameBuffer((k) => source.frameAt(k));
    /** @type {import('./source.js').TimelineMove[]} */
    this.moves = [];
    /** @type {import('./source.js').TimelineCall[]} */
    this.calls = [];
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.redrawTimer = undefined;
    this.advancedAt = 0;
    this.disposed = false;
    this.chart = new Chart();
    this.build(host);
    this.unsubscribe = source.onAppend((count) => {
      this.dispatch({ type: 'append', count });
      if (!source.live) this.dispatch({ type: 'ended' });
      this.loadMoves();
    });
    this.loadMoves();
    this.controls();
    this.show();
  }

  /** @param {HTMLElement} host */
  build(host) {
    /** @type {Record<string, import('./playback.js').Action>} */
    const actions = { home: { type: 'home' }, back: { type: 'step', delta: -1 }, toggle: { type: 'toggle' },
      forward: { type: 'step', delta: 1 }, end: { type: 'end' }, live: { type: 'live' } };
    const button = (/** @type {string} */ action, /** @type {string} */ text, /** @type {string} */ label) =>
      h('button', { type: 'button', dataset: { action }, 'aria-label': label, text,
        onclick: () => this.dispatch(actions[action]) });
    this.stateLine = h('p', { className: 'timeline-state', dataset: { field: 'timeline-state' }, 'aria-live': 'polite' });
    this.toggleButton = button('toggle', 'Play', 'play or pause (space)');
    this.liveButton = button('live', 'Live', 'back to the present');
    this.speed = h('select', { dataset: { field: 'timeline-speed' }, 'aria-label': 'playback speed',
      onchange: () => this.dispatch({ type: 'speed', speed: Number(this.speed.value) }) },
    SPEEDS.map((speed) => h('option', { value: String(speed), text: speedName(speed) })));
    this.scrubber = /** @type {HTMLInputElement} */ (h('input', { type: 'range', min: '0', max: '0', step: '1',
      dataset: { field: 'timeline-scrubber' }, 'aria-label': 'move',
      oninput: () => this.dispatch({ type: 'seek', move: Number(this.scrubber.value) }) }));
    this.markerStrip = h('div', { className: 'timeline-markers', dataset: { field: 'timeline-markers' } });
    this.where = h('p', { dataset: { field: 'timeline-where' } });
    this.message = h('p', { className: 'timeline-message', dataset: { field: 'timeline-message' } });
    this.map = h('pre', { className: 'timeline-map', dataset: { field: 'timeline-map' }, 'aria-label': 'map at this move' });
    this.status = h('pre', { className: 'timeline-status', dataset: { field: 'timeline-status' } });
    this.question = h('p', { dataset: { field: 'timeline-question' } });
    this.error = h('p', { className: 'timeline-error', dataset: { field: 'timeline-error' }, role: 'alert' });
    this.frame = h('div', { className: 'timeline-frame', dataset: { field: 'timeline-frame', move: '' } },
      this.where, this.message, this.map, this.status, this.question, this.error);
    this.list = h('ol', { className: 'timeline-calls', dataset: { field: 'timeline-calls' } });
    this.element = h('section', { className: 'panel timeline', dataset: { field: 'timeline' }, tabindex: '0',
      'aria-label': 'timeline: ← → one move, Home/End, space plays or pauses',
      onkeydown: (/** @type {KeyboardEvent} */ event) => this.key(event) },
    h('h3', { text: 'Timeline' }), this.stateLine,
    h('div', { className: 'timeline-controls' }, button('home', '« First', 'first move (Home)'),
      button('back', '◀', 'one move back (←)'), this.toggleButton, button('forward', '▶', 'one move on (→)'),
      button('end', 'Last »', 'last move (End)'), this.speed, this.liveButton),
    this.scrubber, this.markerStrip, this.chart.element, this.frame, h('h4', { text: 'Moves' }), this.list);
    host.append(this.element);
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const action = keyAction({ key: event.key, altKey: event.altKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey,
      targetTag: target.tagName, targetType: /** @type {HTMLInputElement} */ (target).type });
    if (!action) return;
    event.preventDefault(); // the scrubber's own arrow handling would step twice
    this.dispatch(action);
  }

  /** @param {import('./playback.js').Action} action */
  dispatch(action) {
    if (this.disposed) return;
    const before = this.state;
    this.state = reduce(this.state, action);
    if (action.type === 'advance') this.advancedAt = performance.now();
    if (this.state.mode !== 'playing') clearTimeout(this.timer);
    this.controls();
    const moved = this.state.position !== before.position || action.type === 'seek';
    if (moved || (this.state.mode === 'playing' && before.mode !== 'playing')) this.show();
  }

  controls() {
    const { mode, position, count, speed, live } = this.state;
    this.scrubber.max = String(count);
    this.scrubber.value = String(position);
    this.scrubber.setAttribute('aria-valuetext', `move ${position} of ${count}`);
    this.toggleButton.textContent = mode === 'paused' ? 'Play' : 'Pause';
    this.liveButton.toggleAttribute('disabled', !live || mode === 'live');
    this.speed.value = String(speed);
    const lag = behind(this.state);
    this.element.dataset.mode = mode;
    this.element.dataset.behind = String(lag);
    this.stateLine.textContent = mode === 'live' ? `live · move ${position}`
      : mode === 'playing' ? `playing at ${speedName(speed)} · move ${position} of ${count}${live && lag ? ` · ${lag} behind the present` : ''}`
        : `paused · move ${position} of ${count}${live && lag ? ` · ${lag} behind the present` : ''}`;
  }

  /** Draw the frame at the position (the latest asked wins), then, when playing, the next move on time. */
  async show() {
    const move = this.state.position;
    let frame;
    try {
      frame = await this.buffer.get(move);
    } catch (error) {
      if (this.state.position !== move || this.disposed) return;
      this.frame.dataset.move = String(move);
      this.frame.dataset.exact = 'false';
      replace(this.map);
      this.error.textContent = `This move cannot be shown: ${String(error && error.message || error)}`;
      this.dispatch({ type: 'pause' });
      return;
    }
    if (this.state.position !== move || this.disposed) return;
    this.draw(frame);
    this.onMove(move, this.state.mode !== 'live' && this.state.mode !== 'playing');
    this.buffer.prefetch(move, this.state.count);
    if (this.state.mode === 'playing') {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.dispatch({ type: 'advance' }),
        nextDelay(this.state.speed, this.advancedAt, performance.now()));
    }
  }

  /** @param {import('./source.js').TimelineFrame} frame */
  draw(frame) {
    const { count } = this.state;
    this.error.textContent = '';
    // a redraw of the same move (its "of count" changed as the game went on) is not a new move shown:
    // data-move changes only when the move does, so an observer of it sees each move once
    if (this.frame.dataset.move !== String(frame.move)) this.frame.dataset.move = String(frame.move);
    this.frame.dataset.exact = String(frame.exact);
    const facts = [`Move ${frame.move} of ${count}`];
    if (frame.turn !== null) facts.push(`T:${frame.turn}`);
    if (frame.depth !== null) facts.push(`Dlvl ${frame.depth}`);
    if (frame.hp !== null) facts.push(`HP ${frame.hp}/${frame.hpMax}`);
    if (!frame.exact) facts.push('(the frame its tool call ended with)');
    if (frame.ended) facts.push('the game ended');
    this.where.textContent = facts.join(' · ');
    this.message.textContent = frame.message;
    this.map.textContent = frame.rows.join('\n');
    this.status.textContent = frame.status.join('\n');
    this.question.textContent = frame.decision ? `Question (${frame.decision.kind}): ${frame.decision.prompt}` : '';
    this.chart.at(frame.move, count);
    this.drawList();
  }

  /** The calls around the current move, the current one marked. */
  drawList() {
    const position = this.state.position;
    const current = Math.max(0, this.calls.findIndex((call) => call.first <= position && position <= call.last));
    const shown = this.calls.slice(Math.max(0, current - LIST_AROUND), current + LIST_AROUND + 1);
    replace(this.list, shown.map((call) => h('li', {
      className: call.first <= position && position <= call.last ? 'current' : '',
      dataset: { call: call.id, first: String(call.first), last: String(call.last) },
    },
    h('button', { type: 'button', text: call.first === call.last ? `move ${call.first}` : `moves ${call.first}–${call.last}`,
      onclick: () => this.dispatch({ type: 'seek', move: call.last }) }),
    ' ', h('code', { text: call.label }),
    call.status ? h('span', { className: 'outcome', text: ` ${call.status}` }) : null,
    h('span', { className: 'facts', text: ` ${callFacts(call)}` }),
    call.messages.length ? h('q', { text: call.messages.join(' ') }) : null)));
  }

  /** Read the moves the source holds beyond those known (and calls whose facts came since). */
  async loadMoves() {
    const count = this.source.moveCount();
    if (count < 1) return;
    const moves = await this.source.moves(1, count);
    if (this.disposed) return;
    this.moves = moves;
    /** @type {Map<string, import('./source.js').TimelineCall>} */
    const calls = new Map();
    for (const move of moves) calls.set(move.call.id, move.call);
    this.calls = [...calls.values()];
    this.drawList();
    if (this.redrawTimer === undefined) {
      this.redraw();
      this.redrawTimer = setTimeout(() => { this.redrawTimer = undefined; this.redraw(); }, REDRAW_MS);
    }
  }

  /** Markers and chart. */
  redraw() {
    const count = this.state.count;
    this.chart.draw(this.calls, count);
    this.chart.at(this.state.position, count);
    replace(this.markerStrip, markers(this.calls, this.moves).map((marker) => {
      const mark = h('button', {
        type: 'button', className: `marker ${marker.kind}`, title: `move ${marker.move}: ${marker.label}`,
        'aria-label': `move ${marker.move}: ${marker.label}`,
        dataset: { kind: marker.kind, move: String(marker.move) },
        onclick: () => this.dispatch({ type: 'seek', move: marker.move }),
      });
      mark.style.left = `${count ? (marker.move / count) * 100 : 0}%`; // CSSOM: the page's CSP allows no style attribute
      return mark;
    }));
  }

  /** @param {number} move */
  seek(move) { this.dispatch({ type: 'seek', move }); }

  dispose() {
    this.disposed = true;
    clearTimeout(this.timer);
    clearTimeout(this.redrawTimer);
    this.unsubscribe();
    this.source.close();
    this.element.remove();
  }
}
