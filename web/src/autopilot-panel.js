// autopilot-panel.js - start/stop the autopilot and show what it is doing.
// This panel controls the reference agent only; it sends no gameplay input
// itself and there is no manual play.
import { h, replace } from './dom.js';
import { HARNESS } from '../../webmcp/autopilot/autopilot.js';

export class AutopilotPanel {
  constructor(autopilot, ready) {
    this.autopilot = autopilot;
    this.button = h('button', { type: 'button', disabled: 'disabled', dataset: { control: 'autopilot' },
                                text: 'Start the autopilot', onclick: () => this.toggle() });
    this.keepPlaying = h('input', { type: 'checkbox', dataset: { control: 'autopilot-keep-playing' },
                                    onchange: () => { autopilot.options.keepPlaying = this.keepPlaying.checked; } });
    this.status = h('div', { className: 'autopilot-status' });
    this.summary = h('div', { className: 'autopilot-summary', dataset: { field: 'autopilot-summary' } });
    this.log = h('ol', { className: 'log autopilot-log' });
    this.element = h('section', { className: 'autopilot panel' },
      h('h2', { text: 'Autopilot' }),
      h('p', { className: 'muted', text: `A reference agent that plays only through the WebMCP tools this page registers; `
        + `its games carry the harness label “${HARNESS}”.` }),
      h('div', { className: 'buttons' }, this.button,
        h('a', { href: '#/watch', dataset: { control: 'autopilot-watch' }, text: 'Watch it play (follows each new game)' })),
      h('label', {}, this.keepPlaying, ' start a new game after each end'),
      this.status, this.summary, this.log);
    ready.then(() => this.button.removeAttribute('disabled'), () => {});
    this.update();
  }

  toggle() {
    if (this.autopilot.state.running) this.autopilot.stop();
    else this.autopilot.start();
  }

  update() {
    const state = this.autopilot.state;
    this.button.textContent = state.running ? 'Stop the autopilot' : 'Start the autopilot';
    const parts = [
      h('span', { dataset: { field: 'autopilot-state' }, text: state.running ? 'playing' : 'stopped' }),
      ` · ${state.actions} actions, ${state.calls} tool calls, ${state.decisions} decisions answered`,
    ];
    if (state.gameId) {
      parts.push(' · game ', h('a', { href: `#/g/${encodeURIComponent(state.gameId)}`, text: state.gameId }));
    }
    replace(this.status, ...parts);
    if (state.unhandled) this.status.append(h('div', { className: 'boot-error', text: `${state.unhandled.code}: ${state.unhandled.message}` }));
    const last = state.summary;
    replace(this.summary, last ? `Last game: ${last.role}, deepest Dlvl ${last.deepest}, turn ${last.turns}, `
      + `${last.calls} calls, ${last.death || last.endReason}` : '');
    replace(this.log, state.log.slice().reverse().map((line) => h('li', { text: line })));
  }
}
