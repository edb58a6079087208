// game-controls.js - who owns the game on show, and what a person can do
// about it: resume it here, take it over from the tab that owns it, export
// it as a file. Also the diagnostics that block its input: a storage fault,
// a recovery in progress, a resume that was refused (another engine build,
// a journal that does not replay).
//
// Ownership is the Web Lock nethack:session:<id>, held by the owning tab's
// worker while the game is loaded. This tab knows which games its own
// worker holds (bridge.games); the lock manager says whether anyone does.
// Nothing here sends game input: resuming and taking over replay the
// journal, exporting reads it.
import { h, replace } from './dom.js';
import { badgeState, stateLabel } from './states.js';

export const SESSION_LOCK = (gameId) => `nethack:session:${gameId}`;

/** The names of the Web Locks held in this origin right now. */
export async function heldLocks() {
  if (!navigator.locks) return new Set();
  const { held } = await navigator.locks.query();
  return new Set((held || []).map((lock) => lock.name));
}

/** Offer `text` as a file download. */
function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = h('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// One plain line each; the longer why is in the menu's details.
const MESSAGES = {
  owner: 'This tab plays this game.',
  observer: 'Watching: another tab plays this game.',
  lost: 'Another tab took this game over: this tab only watches it now.',
  stored: 'Not open in any tab: resume it here to play on.',
  opening: 'Opening the game: replaying its moves…',
  ended: 'This game has ended.',
};
const DETAILS = {
  owner: 'Only this tab can advance it: an agent plays it through this page\'s tools. Other tabs only watch.',
  observer: 'This view follows it as it is played. Tools called in this tab are refused (lostOwnership).',
  lost: 'This tab writes nothing more for it; its tools are refused here (lostOwnership).',
  stored: 'It is kept in this browser. Resuming replays its recorded moves on a fresh game (its journal).',
  opening: 'Its recorded moves (its journal) are replayed on a fresh game.',
  ended: 'Nobody can advance it any more. Its record and its recorded moves remain, and it can be exported.',
};
// What a refused resume means, in plain words (the code stays in the details line).
const REFUSALS = {
  stateMismatch: 'Its recorded moves do not lead to the state that was saved, so it was not resumed.',
  engineMismatch: 'It was recorded by another version of the game, so it cannot be resumed here.',
  replayDiverged: 'Replaying its recorded moves did not reach where the game was, so it was not resumed.',
  failed: 'It could not be opened here.',
};

export class GameControls {
  /** `autopilot`: {playing(gameId), play(gameId), stop()} of this tab's autopilot, or null (no autopilot here).
   * @param {string} gameId
   * @param {{bridge: any, site: Record<string, any>,
   *          autopilot?: {playing: (gameId: string) => boolean, play: (gameId: string) => void, stop: () => void} | null}} options */
  constructor(gameId, { bridge, site, autopilot = null }) {
    this.gameId = gameId;
    this.bridge = bridge;
    this.site = site;
    this.autopilot = autopilot;
    this.element = h('section', { className: 'controls panel', dataset: { panel: 'ownership' } });
    this.busy = null;       // 'opening' | 'taking over' | 'exporting' while one runs
    this.refusal = null;    // {code, message} of a resume that was refused
    this.note = null;       // a one-line result (export done, …)
    this.state = null;
    this.confirming = false; // Take over was pressed: the page asks before it acts
    this.ended = false;
    this.snapshot = null;
  }

  /** The game's ownership from this tab's point of view. */
  async ownership() {
    if (this.ended) return 'ended'; // nobody can advance it, whoever holds it
    const mine = this.bridge.games[this.gameId];
    if (mine && mine.owner) return 'owner';
    const held = (await heldLocks()).has(SESSION_LOCK(this.gameId));
    if (this.site.lost.includes(this.gameId) && held) return 'lost';
    if (held) return 'observer';
    return 'stored';
  }

  /** Load the game on show into this tab when nobody has it loaded here yet. */
  async autoOpen(record) {
    this.ended = Boolean(record && record.endedAt);
    if (this.ended || this.bridge.games[this.gameId] || this.busy) return;
    await this.run('opening', () => this.bridge.open(this.gameId));
  }

  async run(what, work) {
    this.busy = what;
    this.refusal = null;
    this.note = null;
    await this.update();
    try {
      await this.bridge.ready;
      const frame = await work();
      if (frame && frame.error && !frame.basis) this.refusal = frame.error;
    } catch (error) {
      this.refusal = { code: 'failed', message: String(error && error.message ? error.message : error) };
    } finally {
      this.busy = null;
      await this.update();
    }
  }

  /** Take over asks first: it stops whatever plays the game in the other tab. */
  askTakeOver() {
    this.confirming = true;
    return this.update().then(() => {
      const confirm = this.element.querySelector('[data-control=take-over-confirm]');
      if (confirm instanceof HTMLElement) confirm.focus();
    });
  }

  cancelTakeOver() {
    this.confirming = false;
    return this.update();
  }

  takeOver() {
    this.confirming = false;
    return this.run('taking over', async () => {
      const frame = await this.bridge.takeOver(this.gameId);
      this.site.lost = this.site.lost.filter((id) => id !== this.gameId);
      return frame;
    });
  }

  resume() {
    return this.run('opening', () => this.bridge.open(this.gameId));
  }

  async exportGame() {
    await this.run('exporting', async () => {
      const text = await this.bridge.exportGame(this.gameId);
      download(`nethack-${this.gameId}.json`, text);
      const exported = JSON.parse(text);
      this.note = `Exported ${exported.journal.length} journal entries at revision ${exported.revision} `
        + `(state ${String(exported.stateHash).slice(0, 12)}…).`;
      return null;
    });
  }

  /** Redraw from the latest snapshot (diagnostics) and ownership. Redraws
   *  run one at a time, and one asked for while another runs runs after it:
   *  two overlapping ones could otherwise finish out of order and leave the
   *  older answer on show (an "observer" drawn after the "owner" it became). */
  update(snapshot = this.snapshot) {
    this.snapshot = snapshot;
    if (this.updating) {
      this.updateAgain = true;
      return this.updating;
    }
    this.updating = (async () => {
      do {
        this.updateAgain = false;
        await this.draw();
      } while (this.updateAgain);
    })().finally(() => { this.updating = null; });
    return this.updating;
  }

  async draw() {
    const snapshot = this.snapshot;
    const owned = await this.ownership();
    const state = this.busy === 'opening' ? 'opening' : owned; // busy as it is now, after the wait
    this.state = state;
    this.element.dataset.ownership = state;
    const buttons = [];
    if (!this.busy) {
      if (state === 'observer' || state === 'lost') {
        buttons.push(h('button', { type: 'button', className: 'small', dataset: { control: 'take-over' }, text: 'Take over…',
          'aria-expanded': String(this.confirming), onclick: () => this.askTakeOver() }));
      }
      if (state === 'stored') {
        buttons.push(h('button', { type: 'button', className: 'small', dataset: { control: 'resume' }, text: 'Resume here',
          onclick: () => this.resume() }));
      }
      // a game this tab plays and that goes on can be handed to the autopilot (and taken back)
      if (state === 'owner' && this.autopilot) {
        buttons.push(this.autopilot.playing(this.gameId)
          ? h('button', { type: 'button', className: 'small', dataset: { control: 'autopilot-stop' }, text: 'Stop the autopilot',
                          onclick: () => { this.autopilot?.stop(); this.update(); } })
          : h('button', { type: 'button', className: 'small', dataset: { control: 'autopilot-play' },
                          text: 'Let the autopilot play',
                          title: 'The reference agent plays this game from where it is, through this page\'s tools.',
                          onclick: () => { this.autopilot?.play(this.gameId); this.update(); } }));
      }
      buttons.push(h('button', { type: 'button', className: 'small', dataset: { control: 'export' }, text: 'Export',
        title: 'Download the game as one file (it can be imported here or by the Python package).',
        onclick: () => this.exportGame() }));
    } else if (this.busy !== 'opening') {
      buttons.push(h('span', { className: 'muted', text: `${this.busy}…` }));
    }
    const diagnostics = (snapshot && state === 'owner' && snapshot.diagnostics) || {};
    const storage = diagnostics.storage;
    const recovery = diagnostics.recovery;
    if (state !== 'observer' && state !== 'lost') this.confirming = false;
    const playing = Boolean(this.autopilot && this.autopilot.playing(this.gameId));
    const key = JSON.stringify([state, this.busy, this.refusal, this.note, storage, recovery, this.confirming, playing]);
    if (key === this.drawn) return; // unchanged: keep the buttons under the pointer
    this.drawn = key;
    replace(this.element,
      h('h3', { className: 'sr-only', text: 'Who plays this game' }),
      h('div', { className: 'bar' },
        h('span', { className: `badge ${badgeState(state)}`, dataset: { field: 'ownership-state' }, text: stateLabel(state) }),
        h('span', { dataset: { field: 'ownership' }, text: MESSAGES[state] || state }),
        ...buttons,
        h('details', { className: 'menu', dataset: { control: 'game-menu' } }, h('summary', { text: 'Details' }),
          h('p', { dataset: { field: 'ownership-details' }, text: DETAILS[state] || '' }))),
      this.confirming ? this.confirmation() : null,
      this.note ? h('p', { className: 'muted', dataset: { field: 'controls-note' }, text: this.note }) : null,
      this.refusal ? h('div', { className: 'diagnostic', role: 'alert', dataset: { field: 'resume-error', code: this.refusal.code } },
        h('strong', { text: `Not resumed. ` }), h('span', { text: REFUSALS[this.refusal.code] || 'It could not be resumed here.' }),
        h('details', {}, h('summary', { text: 'Details' }),
          h('code', { text: `${this.refusal.code}: ${this.refusal.message}` }))) : null,
      storage && storage.status === 'failed'
        ? h('div', { className: 'diagnostic', role: 'alert', dataset: { field: 'storage', status: storage.status } },
            h('strong', { text: 'Storage problem: input is blocked. ' }), h('span', { text: storage.message }))
        : null,
      recovery && recovery.status === 'required'
        ? h('div', { className: 'diagnostic', role: 'alert', dataset: { field: 'recovery' } },
            h('strong', { text: 'Recovery required: input is blocked. ' }), h('span', { text: recovery.message }))
        : null);
  }

  /** The question Take over asks: it stops the agent (or autopilot) playing in the other tab. */
  confirmation() {
    return h('div', { className: 'confirm', role: 'group', 'aria-label': 'Take this game over?', dataset: { panel: 'take-over-confirm' } },
      h('p', { text: 'Take this game over? The tab that plays it now stops: an agent or the autopilot playing it there '
        + 'is stopped, and this tab plays it from here on.' }),
      h('div', { className: 'buttons' },
        h('button', { type: 'button', className: 'small danger', dataset: { control: 'take-over-confirm' },
                      text: 'Take it over', onclick: () => this.takeOver() }),
        h('button', { type: 'button', className: 'small', dataset: { control: 'take-over-cancel' }, text: 'Cancel',
                      onclick: () => this.cancelTakeOver() })));
  }
}
