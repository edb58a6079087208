// spectator.js - the read-only view of one game (#/g/<game-id>).
//
// It renders the latest snapshot the owning tab's worker stored in
// IndexedDB, and redraws when a tab announces a newer one (BroadcastChannel)
// or on a slow poll while visible. It never calls a tool and has no gameplay
// controls: watching, reloading or opening more tabs cannot change a game.
// Its ownership panel (game-controls.js) loads the game into this tab when
// no worker here has it (a resume by replay, or a read-only observer when
// another tab owns it), and offers Take over, Resume here and Export.
import { ago, h, replace, when } from './dom.js';
import { GameControls, SESSION_LOCK, heldLocks } from './game-controls.js';
import { renderMap } from './map.js';
import { CHANNEL, getGame, getSnapshot } from './store.js';

const POLL_MS = 1000;

function field(name, value, className = 'value') {
  return h('span', { className, dataset: { field: name }, text: value ?? '—' });
}

function stat(label, name, value) {
  return h('div', { className: 'stat' }, h('span', { className: 'label', text: label }), field(name, value));
}

function header(snapshot, record) {
  const session = snapshot?.session || {};
  const identity = [session.role || record.role, session.race || record.race, session.gender || record.gender,
                    session.alignment || record.alignment].filter(Boolean).join(' ');
  return h('header', { className: 'game-header' },
    h('h2', {}, field('name', session.name || record.name, 'name')),
    h('div', { className: 'identity', text: identity }),
    h('div', { className: 'labels' },
      h('span', { className: 'label', text: 'harness' }), field('harness', record.harness || '—'),
      h('span', { className: 'label', text: 'model' }), field('model', record.model || '—')),
    h('div', { className: 'lifecycle' },
      field('lifecycle', record.lifecycle, `badge ${record.lifecycle.split(' ')[0]}`),
      h('span', { className: 'label', text: 'last update' }), field('updated', ago(record.updatedAt)),
      h('span', { className: 'label', text: 'revision' }), field('revision', String(record.revision ?? '—'))));
}

function status(observation) {
  const v = observation.vitals || {};
  const conditions = (v.condition || []).join(', ');
  return h('section', { className: 'status panel' }, h('h3', { text: 'Status' }),
    stat('HP', 'hp', `${v.hp}/${v.hpMax}`),
    stat('Pw', 'pw', `${v.energy}/${v.energyMax}`),
    stat('AC', 'ac', String(v.ac)),
    stat('XL', 'xl', String(v.level)),
    stat('Gold', 'gold', String(v.gold)),
    stat('Hunger', 'hunger', v.hungerLabel || (v.hunger ? v.hunger.replace('_', ' ') : '—')),
    stat('Conditions', 'conditions', conditions || 'none'),
    stat('Turn', 'turn', String(observation.turn)),
    stat('Depth', 'depth', `${observation.levelLabel || ''} (depth ${observation.depth}, ${observation.dungeon || ''})`),
    stat('St/Dx/Co', 'attributes', `${v.strength}/${v.dexterity}/${v.constitution}`),
    stat('In/Wi/Ch', 'attributes2', `${v.intelligence}/${v.wisdom}/${v.charisma}`));
}

function decisionPanel(decision) {
  const panel = h('section', { className: 'decision panel' }, h('h3', { text: 'Standing decision' }));
  if (!decision) {
    panel.append(field('decision-prompt', 'none: the game waits for an action', 'muted'));
    return panel;
  }
  panel.append(h('div', { className: 'prompt' }, field('decision-prompt', decision.prompt, 'prompt-text')),
    h('div', { className: 'muted' }, 'kind ', field('decision-kind', decision.kind, 'value'),
      decision.select ? ` · select ${decision.select}` : '', decision.cancellable ? ' · cancellable' : ''));
  const options = decision.options || decision.suggestedItems || [];
  if (options.length) {
    panel.append(h('ol', { className: 'options', dataset: { field: 'decision-options' } },
      options.map((option) => h('li', {},
        h('span', { className: 'option-id', text: String(option.id ?? option.itemId) }),
        h('span', { text: option.name ?? option.label ?? '' }),
        option.group ? h('span', { className: 'muted', text: ` (${option.group})` } ) : null))));
  }
  return panel;
}

function messagesPanel(observation, events) {
  const panel = h('section', { className: 'messages panel' }, h('h3', { text: 'Recent messages' }));
  const messages = observation.recentMessages || [];
  panel.append(messages.length
    ? h('ol', { className: 'log', dataset: { field: 'messages' } }, messages.map((text) => h('li', { text })))
    : h('p', { className: 'muted', text: 'none yet' }));
  const passages = (events || []).filter((event) => event.type === 'passage').slice(-2);
  for (const passage of passages) {
    panel.append(h('h4', { text: `Text shown at turn ${passage.turn}` }),
      h('pre', { className: 'passage', text: (passage.lines || []).join('\n') }));
  }
  return panel;
}

function inventoryPanel(observation, snapshot) {
  const panel = h('section', { className: 'inventory panel' });
  let items = null;
  let freshness;
  if (observation.inventoryKnown) {
    items = observation.inventory || [];
    freshness = `current (turn ${observation.turn})`;
  } else if (snapshot.lastInventory) {
    items = snapshot.lastInventory.items;
    freshness = `not visible now; last seen at turn ${snapshot.lastInventory.turn}`;
  } else {
    freshness = 'unknown';
  }
  panel.append(h('h3', {}, 'Inventory ', field('inventory-freshness', freshness, 'freshness')));
  if (items) {
    panel.append(items.length
      ? h('ul', { className: 'items' }, items.map((item) => h('li', {},
          h('span', { className: 'letter', text: `${item.letter} ` }), h('span', { text: item.label }))))
      : h('p', { className: 'muted', text: 'empty' }));
  }
  return panel;
}

function summary(record) {
  if (!record.endedAt) return null;
  return h('section', { className: 'summary panel' }, h('h3', { text: 'Game over' }),
    stat('End reason', 'end-reason', record.endReason === 'ascended' ? 'ascended (won)' : record.endReason),
    record.death ? stat('Cause', 'death', record.death) : null,
    stat('Score', 'score', String(record.score)),
    stat('Deepest floor', 'deepest', String(record.deepest ?? 'unknown')),
    stat('Final floor', 'final-depth', String(record.depth ?? 'unknown')),
    stat('Started', 'started', when(record.startedAt)),
    stat('Ended', 'ended', when(record.endedAt)));
}

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
      const updated = this.root.querySelector('[data-field="updated"]');
      if (updated && record) updated.textContent = ago(record.updatedAt);
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
    const observation = snapshot?.observation || {};
    this.root.dataset.revision = String(snapshot?.revision ?? '');
    this.root.dataset.gameId = this.gameId;
    replace(this.root,
      h('a', { className: 'back', href: '#/', text: '← all games' }),
      header(snapshot, record),
      this.controls.element,
      summary(record),
      snapshot
        ? h('div', { className: 'game-body' },
            h('section', { className: 'map-panel panel' }, renderMap(snapshot.map.rows, observation.position)),
            h('div', { className: 'side' }, status(observation), decisionPanel(snapshot.decision),
              messagesPanel(observation, snapshot.events), inventoryPanel(observation, snapshot)))
        : h('p', { className: 'muted', text: 'No snapshot of this game was kept.' }));
  }

  dispose() {
    clearInterval(this.timer);
    this.channel.close();
  }
}
