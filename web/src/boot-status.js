// boot-status.js - the boot progress line, and a clear error when the
// worker, Pyodide, micropip, our wheel or the engine fails to load.
//
// The bar moves through the stages the worker really passes (worker/main.js):
// from the build's Python snapshot (snapshot → package → engine → start), or a
// plain boot (pyodide → micropip → package → engine → start), which a failed
// snapshot falls back to - the bar then starts over on the plain path, and
// the ready line says the snapshot failed and why.
import { h, replace } from './dom.js';

const PATHS = {
  snapshot: ['snapshot', 'package', 'engine', 'start'],
  plain: ['pyodide', 'micropip', 'package', 'engine', 'start'],
};

export class BootStatus {
  constructor(element) {
    this.element = element;
    this.stages = PATHS.plain;
    this.bar = h('progress', { max: String(this.stages.length), value: '0' });
    this.label = h('span', { className: 'boot-label', text: 'Starting the game host…' });
    replace(element, this.bar, this.label);
    element.dataset.state = 'booting';
  }

  progress(stage, label) {
    if (stage === 'snapshot') this.stages = PATHS.snapshot;
    if (stage === 'pyodide') this.stages = PATHS.plain;
    this.bar.max = this.stages.length;
    this.bar.value = Math.max(0, this.stages.indexOf(stage));
    this.element.dataset.stage = stage;
    this.label.textContent = label;
  }

  ready(timings) {
    this.element.dataset.state = 'ready';
    this.element.dataset.boot = String(timings.boot);
    const how = timings.boot === 'snapshot' ? ' (from the build snapshot)'
      : timings.snapshotFailure ? ` (the build snapshot failed: ${timings.snapshotFailure}; started from scratch)` : '';
    replace(this.element, h('span', { className: 'boot-label',
      text: `Game host ready in ${(timings.ready / 1000).toFixed(1)} s${how}: NetHack 3.6.7 (WebAssembly) and the tools (Python).` }));
  }

  failed({ stage, message }) {
    this.element.dataset.state = 'failed';
    replace(this.element, h('div', { className: 'boot-error', role: 'alert' },
      h('strong', { text: `The game host could not start (stage: ${stage}).` }),
      h('p', { text: message }),
      h('p', { text: 'Reload the page to try again; if it keeps failing, rebuild the site (./scripts/build).' })));
  }
}
