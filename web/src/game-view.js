// game-view.js - the rendering of one game: header, game-over banner, map
// (ASCII or tiles), a text summary for screen readers, status, standing
// decision, activity, messages, inventory and, once it ended, its record.
//
// Shared by both spectators: the page's (spectator.js: snapshots from
// IndexedDB) and the native MCP server's (server/spectator.js: snapshots
// over HTTP). `record` is the game's record in the page's shape, `snapshot`
// the published spectator snapshot (py/nethack_webmcp/watch/snapshot.py).
// All text goes through dom.js (textContent): game text is never markup.
import { ago, h, replace, when } from './dom.js';
import { mapText, renderMap } from './map.js';
import { mapSummary } from './map-summary.js';
import { renderTiles } from './tiles.js';
import { badgeState, stateLabel } from './states.js';
import { placeBoard } from './board.js';
import { endingPanel, withoutTopTen } from './ending.js';
import { SITE_TITLE, faviconBadge, gameTitle, setFavicon, statusLines } from './status-lines.js';

function field(name, value, className = 'value') {
  return h('span', { className, dataset: { field: name }, text: value ?? '—' });
}

/** A label and its value, separated for screen readers by a visually hidden colon. */
function stat(label, name, value) {
  return h('div', { className: 'stat' }, h('span', { className: 'label', text: label }),
    h('span', { className: 'sr-only', text: ': ' }), field(name, value));
}

/** The game ID and a button that copies it (to resume it, or to hand it to an agent). */
function gameIdLine(gameId) {
  const button = h('button', { type: 'button', className: 'small', dataset: { control: 'copy-game-id' }, text: 'Copy',
    'aria-label': 'Copy the game ID',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(gameId);
        button.textContent = 'Copied';
      } catch {
        // no clipboard here (permission refused): select the ID so it can be copied by hand
        const selection = window.getSelection();
        if (selection) selection.selectAllChildren(code);
        button.textContent = 'Selected';
      }
    } });
  const code = h('code', { dataset: { field: 'game-id' }, text: gameId });
  return h('div', { className: 'game-id' }, h('span', { className: 'label', text: 'game ID' }), code, ' ', button);
}

function header(snapshot, record, lifecycle, gameId) {
  const session = snapshot?.session || {};
  const identity = [session.role || record.role, session.race || record.race, session.gender || record.gender,
                    session.alignment || record.alignment].filter(Boolean).join(' ');
  return h('header', { className: 'game-header' },
    h('h2', {}, field('name', session.name || record.name, 'name')),
    h('div', { className: 'identity', text: identity }),
    gameIdLine(gameId),
    h('div', { className: 'labels' },
      h('span', { className: 'label', text: 'harness' }), field('harness', record.harness || '—'),
      h('span', { className: 'label', text: 'model' }), field('model', record.model || '—')),
    h('div', { className: 'lifecycle' },
      field('lifecycle', stateLabel(lifecycle), `badge ${badgeState(lifecycle)}`),
      h('span', { className: 'label', text: 'last update' }), field('updated', ago(record.updatedAt)),
      h('span', { className: 'label', text: 'revision' }), field('revision', String(record.revision ?? '—'))));
}

function status(observation) {
  const v = observation.vitals || {};
  const conditions = (v.condition || []).join(', ');
  return h('section', { className: 'status panel', 'aria-label': 'Status' }, h('h3', { text: 'Status' }),
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
  const panel = h('section', { className: 'decision panel', dataset: { panel: 'decision' } },
    h('h3', { text: 'Standing decision' }));
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

// "Count: 14" is the tty's running count of a repeated command, not news.
const NOISE = /^Count: \d+$/;

function messagesPanel(observation, events, end) {
  const panel = h('section', { className: 'messages panel' }, h('h3', { text: 'Recent messages' }));
  const recent = (observation.recentMessages || []).filter((text) => !NOISE.test(text));
  const messages = end ? withoutTopTen(recent) : recent;
  panel.append(messages.length
    ? h('ol', { className: 'log', tabindex: '0', dataset: { field: 'messages' } }, messages.map((text) => h('li', { text })))
    : h('p', { className: 'muted', dataset: { field: 'messages' }, text: 'none yet' }));
  // an ending's windows are all on show in its ending panel (ending.js)
  const passages = Array.isArray(end?.windows) ? []
    : (events || []).filter((event) => event.type === 'passage').slice(-2);
  for (const passage of passages) {
    panel.append(h('h4', { text: `Text shown at turn ${passage.turn}` }),
      h('pre', { className: 'passage', tabindex: '0', text: (passage.lines || []).join('\n') }));
  }
  return panel;
}

/** Whose autopilot notes are on show (renderGame's `notesFrom`). */
const NOTES_FROM = {
  here: 'The autopilot plays this game in this tab. Why it does what it does, newest first:',
  owner: 'The autopilot plays this game in the tab that owns it. Why it does what it does, newest first:',
  'owner-stopped': 'The autopilot played this game in the tab that owns it (it has stopped). Its last reasons, newest first:',
};

/** The recent tool calls that submitted input, newest first, and the
 *  autopilot's notes for this game: this tab's own, or those the owning tab
 *  published with the snapshot. (Only the page's worker keeps the calls: a
 *  snapshot without `activity` has no feed.) */
function activityPanel(activity, notes, notesFrom) {
  const panel = h('section', { className: 'activity panel', dataset: { panel: 'activity' } },
    h('h3', { text: 'Activity' }));
  const calls = (activity || []).slice().reverse();
  panel.append(calls.length
    ? h('ol', { className: 'log feed', tabindex: '0', dataset: { field: 'activity' } }, calls.map((call) => h('li', { dataset: { tool: call.tool } },
        h('code', { className: 'tool', text: call.tool }), ' ',
        h('code', { className: 'args', text: call.arguments || '{}' }),
        h('span', { className: 'muted', text: ` → ${call.error ? `${call.error} ` : ''}${call.submission || '—'}`
          + `${call.status ? `, ${call.status}` : ''} · turn ${call.turn ?? '—'}, revision ${call.revision ?? '—'}` }))))
    : h('p', { className: 'muted', dataset: { field: 'activity' }, text: 'No input has been sent yet.' }));
  if (notes && notes.length) {
    panel.append(h('h4', { text: 'Autopilot notes' }),
      h('p', { className: 'muted', dataset: { field: 'autopilot-notes-from', from: notesFrom || 'here' },
               text: NOTES_FROM[notesFrom || 'here'] }),
      h('ol', { className: 'log notes', tabindex: '0', dataset: { field: 'autopilot-notes' } },
        notes.slice().reverse().map((line) => h('li', { text: line }))));
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

function endReasonText(reason) {
  return reason === 'ascended' ? 'ascended (won)' : reason;
}

/** The game-over banner: how it ended, where, when and the score. */
function banner(record, snapshot) {
  const end = snapshot?.end || {};
  if (!record.endedAt && !snapshot?.end) return null;
  const how = record.death || end.death || endReasonText(record.endReason) || end.how || 'ended';
  const depth = record.depth ?? end.depth;
  const turns = record.turn ?? end.turn;
  const score = record.score ?? end.score;
  return h('section', { className: 'game-over', role: 'status', dataset: { panel: 'game-over' } },
    h('h3', { text: 'Game over' }),
    h('p', {}, field('game-over-how', how, 'how'),
      ` · Dlvl ${depth ?? '?'} · turn ${turns ?? '?'} · score ${score ?? '?'}`));
}

function summary(record) {
  if (!record.endedAt) return null;
  return h('section', { className: 'summary panel' }, h('h3', { text: 'Record' }),
    stat('End reason', 'end-reason', endReasonText(record.endReason)),
    // "quit / quit" says it twice: the cause only when it says more than the reason
    record.death && record.death !== record.endReason ? stat('Cause', 'death', record.death) : null,
    stat('Score', 'score', String(record.score)),
    stat('Turns', 'turns', String(record.turn ?? '—')),
    stat('Deepest floor', 'deepest', String(record.deepest ?? 'unknown')),
    stat('Final floor', 'final-depth', String(record.depth ?? 'unknown')),
    // published with the record: no view shows a live game's seed (docs/DURABILITY.md)
    record.seed != null ? stat('Seed', 'seed', String(record.seed)) : null,
    stat('Started', 'started', when(record.startedAt)),
    stat('Ended', 'ended', when(record.endedAt)));
}

/** Announce `text` in the page's persistent live region (index.html), when
 *  it changed: the map panel is redrawn on every revision, and a live region
 *  that is replaced rather than changed is not reliably announced. */
function announce(text) {
  const live = document.getElementById('live-summary');
  if (live && live.textContent !== text) live.textContent = text;
}

/** The map drawn the chosen way, its toolbar (display, zoom, follow: board.js
 *  wires them), NetHack's two status lines right under it, a text summary
 *  (also announced) and the map as plain text (what an agent reads). */
function mapPanel(snapshot, observation, mapMode, onMapMode) {
  const hero = observation.position;
  const ascii = mapMode !== 'tiles';
  const button = (control, text, label, pressed) => h('button', { type: 'button', className: 'small', dataset: { control },
    text, 'aria-label': label, 'aria-pressed': pressed });
  const toolbar = h('div', { className: 'map-tools', role: 'toolbar', 'aria-label': 'Map view' },
    onMapMode ? h('div', { className: 'map-mode', role: 'group', 'aria-label': 'Map display' },
      ['ascii', 'tiles'].map((mode) => h('button', { type: 'button', className: 'small', dataset: { control: `map-${mode}` },
        'aria-pressed': String(mode === (ascii ? 'ascii' : 'tiles')), text: mode === 'ascii' ? 'ASCII' : 'Tiles',
        onclick: () => onMapMode(mode) }))) : null,
    button('map-zoom-out', '−', 'Zoom out', null),
    button('map-zoom-in', '+', 'Zoom in', null),
    button('map-follow', 'Follow @', 'Follow the hero', 'true'));
  const drawn = ascii ? renderMap(snapshot.map.rows, hero)
    : renderTiles(snapshot.map.rows, hero, snapshot.session || {}, snapshot.creatures || []);
  const spoken = mapSummary(snapshot.map.rows, hero, observation.recentMessages || []);
  announce(spoken);
  const [first, second] = statusLines(observation, snapshot.session?.name);
  return h('section', { className: 'map-panel panel', 'aria-label': 'Map' },
    toolbar,
    h('div', { className: 'map-box', tabindex: '0', role: 'region',
               dataset: { mode: ascii ? 'ascii' : 'tiles', heroX: String(hero?.x ?? ''), heroY: String(hero?.y ?? '') },
               'aria-label': 'Map: arrow keys pan, + and - zoom, F follows the hero' }, drawn),
    h('pre', { className: 'status-lines', dataset: { field: 'status-lines' }, 'aria-label': 'Status lines' },
      h('span', { className: 'status-line', text: first }), '\n', h('span', { className: 'status-line', text: second })),
    h('p', { className: 'sr-only', dataset: { field: 'map-summary' }, text: spoken }),
    h('details', { className: 'map-text' }, h('summary', { text: 'The map as text' }),
      h('pre', { className: 'passage', tabindex: '0', dataset: { field: 'map-text' }, text: mapText(snapshot.map.rows) })));
}

/** Draw a game into `root`: `controls` (an element or null) sits under the
 *  header; `home` is the href of the link back to the games list; `missing`
 *  says why there is no snapshot; `lifecycle` the state to show (default
 *  the record's); `notice` a line above everything (follow mode);
 *  `mapMode` 'ascii' | 'tiles' and `onMapMode(mode)` the map toggle;
 *  `notes` the autopilot's notes for this game, `notesFrom` whose: 'here' (this
 *  tab's autopilot), 'owner' / 'owner-stopped' (published by the owning tab).
 * @param {HTMLElement} root
 * @param {{gameId: string, record: Record<string, any>, snapshot: Record<string, any> | null, controls?: Node | null,
 *          home?: string, missing?: string, lifecycle?: string | null, notice?: Node | null, mapMode?: string,
 *          onMapMode?: ((mode: string) => void) | null, notes?: string[] | null, notesFrom?: string | null}} game */
export function renderGame(root, { gameId, record, snapshot, controls = null, home = '#/',
                                   missing = 'No snapshot of this game was kept.', lifecycle = null,
                                   notice = null, mapMode = 'ascii', onMapMode = null, notes = null,
                                   notesFrom = null }) {
  const observation = snapshot?.observation || {};
  const ended = Boolean(record.endedAt || snapshot?.end);
  root.dataset.revision = String(snapshot?.revision ?? '');
  root.dataset.gameId = gameId;
  root.dataset.ended = String(ended);
  const name = snapshot?.session?.name || record.name;
  document.title = `${gameTitle(name, snapshot ? observation : null, ended,
                                record.death || snapshot?.end?.death || record.endReason || snapshot?.end?.how)} — ${SITE_TITLE}`;
  setFavicon(faviconBadge(snapshot ? observation : null, ended));
  const end = ended ? (snapshot?.end || {}) : null;
  // the board first: after one line of who and what, the map; the rest beside it (desktop) or under it (phone)
  replace(root,
    h('a', { className: 'back', href: home, text: '← all games' }),
    notice,
    header(snapshot, record, lifecycle || (ended ? 'ended' : record.lifecycle), gameId),
    controls,
    banner(record, snapshot),
    snapshot
      ? h('div', { className: 'game-body' },
          mapPanel(snapshot, observation, mapMode, onMapMode),
          h('div', { className: 'side' },
            endingPanel(record, snapshot),
            status(observation),
            ended ? null : decisionPanel(snapshot.decision),
            messagesPanel(observation, snapshot.events, end),
            Array.isArray(snapshot.activity) ? activityPanel(snapshot.activity, notes, notesFrom) : null,
            inventoryPanel(observation, snapshot),
            summary(record)))
      : h('div', { className: 'game-body no-board' }, endingPanel(record, null), summary(record),
          h('p', { className: 'muted', text: missing })));
  if (snapshot) placeBoard(root, observation.position);
}

/** Refresh the "last update" age of a drawn game. */
export function refreshAge(root, record) {
  const updated = root.querySelector('[data-field="updated"]');
  if (updated && record) updated.textContent = ago(record.updatedAt);
}
