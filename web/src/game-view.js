// game-view.js - the rendering of one game: header, map, status, standing
// decision, messages, inventory and, once it ended, its record summary.
//
// Shared by both spectators: the page's (spectator.js: snapshots from
// IndexedDB) and the native MCP server's (server/spectator.js: snapshots
// over HTTP). `record` is the game's record in the page's shape, `snapshot`
// the published spectator snapshot (py/nethack_webmcp/watch/snapshot.py).
// All text goes through dom.js (textContent): game text is never markup.
import { ago, h, replace, when } from './dom.js';
import { renderMap } from './map.js';

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

/** Draw a game into `root`: `controls` (an element or null) sits under the
 *  header; `home` is the href of the link back to the games list; `missing`
 *  says why there is no snapshot. */
export function renderGame(root, { gameId, record, snapshot, controls = null, home = '#/',
                                   missing = 'No snapshot of this game was kept.' }) {
  const observation = snapshot?.observation || {};
  root.dataset.revision = String(snapshot?.revision ?? '');
  root.dataset.gameId = gameId;
  replace(root,
    h('a', { className: 'back', href: home, text: '← all games' }),
    header(snapshot, record),
    controls,
    summary(record),
    snapshot
      ? h('div', { className: 'game-body' },
          h('section', { className: 'map-panel panel' }, renderMap(snapshot.map.rows, observation.position)),
          h('div', { className: 'side' }, status(observation), decisionPanel(snapshot.decision),
            messagesPanel(observation, snapshot.events), inventoryPanel(observation, snapshot)))
      : h('p', { className: 'muted', text: missing }));
}

/** Refresh the "last update" age of a drawn game. */
export function refreshAge(root, record) {
  const updated = root.querySelector('[data-field="updated"]');
  if (updated && record) updated.textContent = ago(record.updatedAt);
}
