// boot-status.js - the boot progress line, and a clear error when the
// worker, Pyodide, micropip, our wheel or the engine fails to load.
import { h, replace } from './dom.js';

const STAGES = ['pyodide', 'micropip', 'package', 'engine', 'start'];

export class BootStatus {
  constructor(element) {
    this.element = element;
    this.bar = h('progress', { max: String(STAGES.length), value: '0' });
    this.label = h('span', { className: 'boot-label', text: 'Starting the game host…' });
    replace(element, this.bar, this.label);
    element.dataset.state = 'booting';
  }

  progress(stage, label) {
    this.bar.value = STAGES.indexOf(stage);
    this.label.textContent = label;
  }

  ready(timings) {
    this.element.dataset.state = 'ready';
    replace(this.element, h('span', { className: 'boot-label',
      text: `Game host ready in ${(timings.ready / 1000).toFixed(1)} s: NetHack 3.6.7 (WebAssembly) and the tools (Python).` }));
  }

  failed({ stage, message }) {
    this.element.dataset.state = 'failed';
    replace(this.element, h('div', { className: 'boot-error', role: 'alert' },
      h('strong', { text: `The game host could not start (stage: ${stage}).` }),
      h('p', { text: message }),
      h('p', { text: 'Reload the page to try again; if it keeps failing, rebuild the site (./scripts/build).' })));
  }
}
