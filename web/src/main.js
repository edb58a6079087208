// main.js - the page: boot the core worker, register the WebMCP tools, and
// route between the home view (#/) and a game's spectator (#/g/<game-id>).
//
// window.nethackSite exposes read-only facts for people and test harnesses:
// {status, stage, error, webmcp, tabId, timings, autopilot, identity, engine,
// games, lost}: `identity` is the game identity (the rules every engine build
// shares), `engine` the build the worker picked ({build: 'jspi'|'asyncify',
// buildIdentity}), `games` the games this tab's worker has loaded ({id:
// {owner, gate}}), `lost` the games another tab took over from this one.
//
// window.nethackReplay replays this browser's stored games from checkpoints
// (worker/page-replay.js; docs/REPLAY.md "Page checkpoints"): open(gameId),
// refresh(gameId) (a game that goes on), moves(gameId, from, to),
// frame(gameId, move), resume(gameId), close(gameId), each resolving with
// plain data (a frame's map rows, messages, status).
//
// Test hooks (window.nethackTest: run Python in the worker, inject IndexedDB
// faults, terminate the worker) exist only when the page was loaded with
// globalThis.__NETHACK_TEST_HOOKS__ === true set before its scripts ran (the
// e2e tests set it with an init script; `globalThis.__NETHACK_TEST_WITHOUT_JSPI__
// = true` besides makes the worker behave as a browser without JSPI). They are
// not WebMCP tools, and a page loaded normally has none.
import config from 'nethack-site-config';
import { modelContext } from '../../webmcp/context.js';
import { declarations } from '../../webmcp/declarations.js';
import { registerTools } from '../../webmcp/register.js';
import { ToolClient } from '../../webmcp/client.js';
import { Autopilot } from '../../webmcp/autopilot/autopilot.js';
import { AutopilotPanel } from './autopilot-panel.js';
import { BootStatus } from './boot-status.js';
import { OfflineLine } from './offline.js';
import { WorkerBridge } from './bridge.js';
import { HomeView } from './home.js';
import { PageReplayPanel } from './page-replay-panel.js';
import { SpectatorView } from './spectator.js';
import { TvView } from './tv.js';
import { configureTiles } from './tiles.js';
import { SITE_TITLE, setFavicon } from './status-lines.js';

// a game's page; `#move=N` after it opens the game's timeline at move N
const GAME_ROUTE = /^#\/g\/([A-Za-z0-9._:-]{1,64})(?:#move=(\d{1,9}))?$/;
const WATCH_ROUTE = '#/watch'; // follow mode: the newest live game
const TV_ROUTE = '#/tv'; // every live game at once
if (config.tiles) configureTiles(config.tiles);

/** @type {Record<string, any>} the facts window.nethackSite shows (above) */
const site = { status: 'booting', stage: null, error: null, webmcp: null, tabId: crypto.randomUUID(),
               timings: null, autopilot: null, registered: false, identity: null, engine: null, games: {},
               lost: [], offline: {} };
window.nethackSite = site;
const testHooks = globalThis.__NETHACK_TEST_HOOKS__ === true;

// A lock held for the tab's life lets other tabs tell whether a game's
// owning tab is still open (navigator.locks.query()).
if (navigator.locks) navigator.locks.request(`nethack:tab:${site.tabId}`, () => new Promise(() => {}));

const boot = new BootStatus(document.getElementById('boot'));
const bridge = new WorkerBridge(config, site.tabId,
                                { testHooks, withoutJspi: testHooks && globalThis.__NETHACK_TEST_WITHOUT_JSPI__ === true });
bridge.onprogress = ({ stage, label }) => { site.stage = stage; boot.progress(stage, label); };
// offline play: the service worker is registered once the game host is up
const offline = new OfflineLine(document.getElementById('offline'), site.offline);
offline.register(bridge.ready);
bridge.ongames = (games) => {
  site.games = games;
  if (view && view.gamesChanged) view.gamesChanged();
};
bridge.onlost = (gameId) => {
  if (!site.lost.includes(gameId)) site.lost.push(gameId);
  if (view && view.gamesChanged) view.gamesChanged();
};
const replay = async (action, fields) => JSON.parse(await bridge.request('replay', { action, ...fields }));
window.nethackReplay = {
  open: (gameId) => replay('open', { gameId }),
  refresh: (gameId) => replay('refresh', { gameId }),
  moves: (gameId, from, to) => replay('moves', { gameId, from, to }),
  frame: (gameId, move) => replay('frame', { gameId, move }),
  resume: (gameId) => replay('resume', { gameId }),
  close: (gameId) => replay('close', { gameId }),
};
if (testHooks) {
  /** @type {Record<string, any>[]} */
  const events = [];
  bridge.ontest = (event) => events.push(event);
  window.nethackTest = {
    events,
    python: (code) => bridge.test('python', { code }),
    faults: async (faults) => JSON.parse(await bridge.test('faults', { faults })),
    terminateWorker: () => bridge.terminate('the worker was terminated (test hook)'),
  };
}
bridge.ready.then((ready) => {
  const expected = JSON.stringify(declarations);
  if (JSON.stringify(ready.declarations) !== expected) {
    // site.error is plain data ({stage, message}) that window.nethackSite shows and boot.failed reads
    // eslint-disable-next-line no-throw-literal
    throw { stage: 'start', message: 'the Python package declares different tools than this page was built with: rebuild the site' };
  }
  site.timings = ready.timings;
  site.identity = ready.identity;
  site.engine = ready.engine;
  site.status = 'ready';
  boot.ready(ready.timings);
}).catch((failure) => {
  site.status = 'failed';
  site.error = failure;
  boot.failed(failure);
});

async function execute(name, args) {
  try {
    await bridge.ready;
  } catch (failure) {
    throw new Error(`the game host in this page failed to start (${failure.stage}): ${failure.message}`);
  }
  if (site.status === 'failed') throw new Error(`the game host in this page is unusable: ${site.error.message}`);
  if (name === 'session' && args && args.action === 'create') offline.gameCreated();
  return bridge.call(name, args);
}

const { context, kind } = modelContext();
site.webmcp = kind;
/** @type {AbortController} */
let registration;
function register() {
  registration = new AbortController();
  registerTools(context, declarations, execute, registration.signal).then(
    () => { site.registered = true; },
    (error) => {
      if (registration.signal.aborted) return;
      site.error = { stage: 'webmcp', message: String(error && error.message || error) };
      boot.failed(site.error);
    });
}
register();
// Shutting down unregisters every tool; a page restored from the
// back/forward cache registers them again.
window.addEventListener('pagehide', () => { registration.abort(); site.registered = false; });
window.addEventListener('pageshow', (event) => { if (event.persisted) register(); });

// the game page's Let the autopilot play / Stop buttons follow it too
const autopilot = new Autopilot(new ToolClient(context), () => {
  panel.update();
  publishNotes();
  if (view && view.gamesChanged) view.gamesChanged();
});
const NOTE_LINES = 12;
/** @type {Map<string, string[]>} the autopilot's notes per game: each line filed under the game it was made for */
const gameNotes = new Map();
let notesSeen = 0;
let published = '';
/** The autopilot's reasons go to this tab's worker, which owns the game it
 *  plays and writes them into the game's snapshot: every tab watching the
 *  game shows them (spectator.js), not only this one. Its log spans games,
 *  so only the lines made since the last look are filed under the game it
 *  plays now (a new game does not start with the last one's reasons). */
function publishNotes() {
  const { gameId, log, running, notesMade } = autopilot.state;
  const fresh = log.slice(log.length - Math.min(log.length, notesMade - notesSeen));
  notesSeen = notesMade;
  if (!gameId) return; // made before its game exists ("starting" a new game): nobody's yet
  const lines = [...(gameNotes.get(gameId) || []), ...fresh].slice(-NOTE_LINES);
  gameNotes.set(gameId, lines);
  const key = JSON.stringify([gameId, running, lines]);
  if (key === published) return;
  published = key;
  bridge.publishNotes(gameId, lines.slice(), running);
}
site.autopilot = autopilot.state;
const panel = new AutopilotPanel(autopilot, bridge.ready);

/** The autopilot's notes while it plays `gameId` in this tab (the activity feed shows them). */
const autopilotNotes = (gameId) => (autopilot.state.gameId === gameId ? (gameNotes.get(gameId) || []).slice() : null);

/** The start form's game: created through the session tool, as an agent creates one. */
async function createFromForm(args) {
  return execute('session', args);
}

/** Hand a game to the autopilot (it carries on from the game's current state). */
function playWithAutopilot(gameId) {
  if (autopilot.state.running) autopilot.stop();
  autopilot.state.gameId = gameId;
  autopilot.start();
}

/** The game page's hook: whether the autopilot plays `gameId` here, hand it a game, stop it. */
const gameAutopilot = {
  playing: (gameId) => autopilot.state.running && autopilot.state.gameId === gameId,
  play: playWithAutopilot,
  stop: () => autopilot.stop(),
};

const main = /** @type {HTMLElement} the page's one <main> (index.html) */ (document.getElementById('main'));
/** @type {{dispose(): void, gamesChanged?: () => void} | null} */
let view = null;
/** @type {PageReplayPanel | null} the game page's timeline, beside the view (which redraws its own element) */
let timeline = null;
function route() {
  if (view) view.dispose();
  if (timeline) timeline.dispose();
  timeline = null;
  document.title = SITE_TITLE; // a game's view names its game (game-view.js)
  setFavicon('data:,'); // and badges its icon
  const match = GAME_ROUTE.exec(location.hash);
  const watching = location.hash === WATCH_ROUTE;
  if (location.hash === TV_ROUTE) {
    view = new TvView(main);
    main.dataset.view = 'tv';
    return;
  }
  if (match || watching) {
    view = new SpectatorView(main, match ? match[1] : null, { bridge, site, notes: autopilotNotes, autopilot: gameAutopilot });
    if (match) {
      const host = document.createElement('div');
      main.after(host);
      timeline = new PageReplayPanel(host, replay, match[1], match[2] === undefined ? null : Number(match[2]));
    }
  } else {
    view = new HomeView(main, { webmcpKind: kind, autopilotPanel: panel.element, bridge,
                                create: createFromForm, playWithAutopilot });
  }
  main.dataset.view = match || watching ? 'game' : 'home';
}
// The skip link moves focus to the content without touching the route (#main is no route).
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
window.addEventListener('hashchange', route);
route();
