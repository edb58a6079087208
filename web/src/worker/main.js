// main.js - the core worker: boots Pyodide once, installs our wheel with
// micropip from the site's own origin, hosts the WASM engines, the durable
// store (IndexedDB) and game ownership (Web Locks), and runs tool calls for
// the page.
//
// Page → worker:  {op:'boot', config, base, tabId, testHooks, withoutJspi}
//                 {id, op:'call', name, arguments}   arguments: JSON text
//                 {id, op:'open', gameId}            load a stored game (resume/observe)
//                 {id, op:'takeOver', gameId}        steal a game from its owning tab
//                 {id, op:'export', gameId}          the game as an exchange document
//                 {id, op:'import', text}            verify and store a document
//                 {id, op:'replay', action, gameId, …} a stored game's replay (page-replay.js):
//                                                    open | refresh | moves {from,to} | frame {move} | resume | close
//                 {id, op:'test', action, …}         test hooks: only when booted with testHooks
// Worker → page:  {type:'progress', stage, label}   stages: snapshot, package, engine, start
//                   (booted from the build's Python snapshot), or pyodide, micropip, package,
//                   engine, start (a plain boot: no snapshot, or it failed - timings.snapshotFailure)
//                 {type:'ready', timings, declarations, identity, engine}
//                   identity: the game identity (rules); engine: {build, buildIdentity}
//                 {type:'failed', stage, message}
//                 {type:'games', games}              the loaded games {id: {owner, gate}}
//                 {type:'lost', gameId}              another tab took a game over
//                 {type:'test', event, …}            test hook events (a frozen write)
//                 {id, ok:true, text} | {id, ok:false, message}   text: JSON (a frame, a document…)
import { loadPyodide } from 'pyodide';
import { engineHost, prepareEngine } from './engine-host.js';
import { BackgroundCheckpointer } from './follower.js';
import { GameBook } from './games.js';
import { PageReplays } from './page-replay.js';
import { SessionCheckpoints, engineTimes } from './session-resume.js';
import { createStorage } from './storage.js';

let pyodide = null;
let python = null; // the nethack_webmcp.worker module (a PyProxy)
let book = null;
let storage = null;
let testHooks = false;
let booted = null;
let checkpointer = null; // the background checkpointer of live games (follower.js)
let inFlight = 0; // page requests being answered: the checkpointer works only while there are none
let bootStage = 'pyodide'; // the stage a boot failure is reported at
/** @type {Record<string, number | string>} ms since the worker started, per stage; `boot`: 'snapshot' | 'plain' */
const timings = {};
const origin = performance.now();

function mark(name) {
  timings[name] = Math.round(performance.now() - origin);
}

function progress(stage, label) {
  bootStage = stage;
  mark(stage);
  self.postMessage({ type: 'progress', stage, label });
}

function announceGames() {
  if (python) self.postMessage({ type: 'games', games: JSON.parse(python.status()) });
}

async function boot({ config, base, tabId, testHooks: hooks, withoutJspi }) {
  const url = (path) => new URL(path, base).href;
  testHooks = hooks === true;
  if (testHooks && withoutJspi) {
    // A test stands in for a browser without JSPI: the worker then takes the
    // same fallback path such a browser takes (engine-builds.js).
    delete WebAssembly.Suspending;
    delete WebAssembly.promising;
  }
  storage = createStorage(tabId, (gameId) => {
    self.postMessage({ type: 'lost', gameId });
    announceGames();
  });
  self.nethackStorage = storage;
  storage.store.open().catch(() => {}); // opened early; a failure is reported by the first call that needs it
  if (testHooks) {
    storage.store.faults.onHang = (op) => self.postMessage({ type: 'test', event: 'hung', op });
  }
  try {
    const engineReady = prepareEngine(config.engine, url);
    engineReady.catch(() => {}); // awaited below; keeps an early failure from going unhandled
    // where checkpoints exist a resume will likely use one: the Asyncify build is fetched and compiled and
    // its base captured while Python boots (cold, that was ~0.5 s or more of the first resume after a reload)
    // ... and finished before the tools are announced: a resume right after a reload would otherwise share
    // the thread with the capture (the first resume's reads measured 2-3x slower behind it)
    const replayWarm = engineReady.then(() => pageReplays().checkpoints.any())
      .then((some) => some && Promise.all([
        pageReplays().engineParts().then(() => pageReplays().warmUp()),
        // one read of the journal's database too: its first read after a reload (the resume's stored
        // game) measured ~100 ms cold under load
        storage.store.call('getSession', JSON.stringify(['-'])),
      ])).catch(() => {});
    const options = { indexURL: url(config.pyodide), stdout: () => {},
                      stderr: (text) => console.warn(`[python] ${text}`) };
    let fallback = null;
    if (config.snapshot) {
      try {
        await restoreSnapshot(config, url, options);
      } catch (error) {
        pyodide = null;
        fallback = describe(error);
        console.warn(`[boot] the Python snapshot could not be restored, starting Python from scratch: ${fallback}`);
      }
    }
    if (!pyodide) {
      await plainBoot(config, url, options, fallback);
    }
    timings.boot = fallback === null && config.snapshot ? 'snapshot' : 'plain';
    if (fallback !== null) timings.snapshotFailure = fallback;
    progress('engine', 'Compiling the NetHack engine…');
    const engine = await engineReady;
    self.nethackEngineHost = engineHost;
    progress('start', 'Starting the game host…');
    python = pyodide.pyimport('nethack_webmcp.worker');
    mark('imported');
    python.start(16, engine.gameIdentity, engine.buildIdentity);
    // a stored game's session resumes from its newest checkpoint (session-resume.js), else its whole journal
    self.nethackSessionCheckpoints = new SessionCheckpoints(pageReplays().checkpoints,
      () => pageReplays().engineParts());
    checkpointer = new BackgroundCheckpointer({
      journal: storage.store,
      store: pageReplays().checkpoints,
      engineParts: () => pageReplays().engineParts(),
      liveMemory: (gameId, dump) => python.live_memory(gameId, dump),
      creationMemory: (created) => {
        const fold = python.memory_fold();
        try {
          fold.begin(created);
          return String(fold.dump());
        } finally {
          fold.destroy();
        }
      },
      // a call whose input waits for a checkpoint is in flight for it (session/page_pacing.py)
      busy: () => inFlight > (checkpointer ? checkpointer.waitingCalls : 0),
      pace: {
        progress: (gameId, seq, priced, pricedMs) => python.pace_progress(gameId, seq, priced, pricedMs),
        release: (gameId) => python.unpace(gameId),
      },
      skip: (gameId) => Boolean(replays && replays.open_.has(gameId)),
    });
    self.nethackCheckpointer = checkpointer; // read by tests and the bench through the worker's Python (js)
    self.nethackRestoredEngineTimes = engineTimes; // the bench's profile of a resume's tail
    book = new GameBook({
      spectate: (gameId) => JSON.parse(python.spectate(gameId)),
      stored: async (gameId) => JSON.parse(await python.stored(gameId)),
      tabId,
    });
    await replayWarm;
    mark('ready');
    self.postMessage({ type: 'ready', timings, declarations: JSON.parse(python.declarations()),
                       identity: engine.gameIdentity,
                       engine: { build: engine.build, buildIdentity: engine.buildIdentity } });
  } catch (error) {
    self.postMessage({ type: 'failed', stage: bootStage, message: describe(error) });
    throw error;
  }
}

const describe = (error) => String(error && error.message ? error.message : error);

/** The build's snapshot as bytes. It is stored gzip'd; a host that serves
 *  .gz files with Content-Encoding: gzip has the browser unpack it already. */
async function fetchSnapshot(address) {
  const response = await fetch(address);
  if (!response.ok || !response.body) throw new Error(`cannot fetch ${address}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const unpacked = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(unpacked).arrayBuffer());
}

// The wheel's files, without its bytecode: every module is imported in the
// snapshot already, and extracting the .pyc files took most of the
// unpacking time (a module imported afresh would compile from its source).
const WHEEL_FILE = '/tmp/nethack_webmcp.whl';
const UNPACK_SOURCES = `
import os, sysconfig, zipfile
with zipfile.ZipFile(${JSON.stringify(WHEEL_FILE)}) as wheel:
    wheel.extractall(sysconfig.get_paths()["purelib"], [n for n in wheel.namelist() if not n.endswith(".pyc")])
os.remove(${JSON.stringify(WHEEL_FILE)})
`;

/** Boot from the build's memory snapshot (scripts/make-snapshot.mjs): our
 *  package is already imported in it; only its source files are unpacked
 *  again (a snapshot holds memory, not the file system). Throws on any
 *  failure, and the caller boots plainly. */
async function restoreSnapshot(config, url, options) {
  progress('snapshot', 'Restoring Python from the build snapshot…');
  const wheel = fetch(url(config.wheel)).then((response) => {
    if (!response.ok) throw new Error(`cannot fetch ${config.wheel}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  wheel.catch(() => {});
  const snapshot = fetchSnapshot(url(config.snapshot.url));
  snapshot.then(() => mark('snapshot.fetched'), () => {});
  pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  mark('snapshot.restored');
  progress('package', 'Unpacking nethack_webmcp…');
  pyodide.FS.writeFile(WHEEL_FILE, new Uint8Array(await wheel));
  pyodide.runPython(UNPACK_SOURCES);
  if (!pyodide.runPython("'nethack_webmcp.worker' in __import__('sys').modules")) {
    throw new Error('the snapshot does not hold nethack_webmcp.worker');
  }
}

/** Boot Pyodide from scratch: micropip installs our wheel from its URL. */
async function plainBoot(config, url, options, fallback) {
  progress('pyodide', fallback === null ? 'Starting Python (Pyodide)…'
    : `The build snapshot failed (${fallback}): starting Python (Pyodide) from scratch…`);
  pyodide = await loadPyodide(options);
  progress('micropip', 'Loading micropip…');
  const problems = [];
  await pyodide.loadPackage(url(config.micropip), { messageCallback: () => {},
                                                    errorCallback: (text) => problems.push(text) });
  if (problems.length) throw new Error(`cannot load ${config.micropip}: ${problems.join(' ')}`);
  mark('micropip.loaded');
  const micropip = pyodide.pyimport('micropip');
  progress('package', 'Installing nethack_webmcp…');
  await micropip.install(url(config.wheel), { deps: false });
}

/** Run one page request; answers {id, ok, text} and keeps the games list current. */
async function answer(id, work, bookkeeping) {
  inFlight += 1;
  try {
    const text = await work();
    self.postMessage({ id, ok: true, text }); // the page parses it: one string clone, not an object's
    if (bookkeeping) bookkeeping(text);
  } catch (error) {
    self.postMessage({ id, ok: false, message: String(error && error.message ? error.message : error) });
  } finally {
    inFlight -= 1;
  }
  announceGames();
}

const observed = (name, argumentsText = null, follow = false) => (text) => {
  const frame = JSON.parse(text);
  book.observe(name, frame, argumentsText);
  // a call that may have made inputs: the background checkpointer follows the game (follower.js)
  if (follow && frame.basis && checkpointer) checkpointer.called(frame.basis.sessionId);
};

async function test(message) {
  if (message.action === 'python') {
    return String(await pyodide.runPythonAsync(message.code));
  }
  if (message.action === 'faults') {
    storage.store.faults.set(message.faults || null);
    return JSON.stringify({ writes: storage.store.faults.writes });
  }
  throw new Error(`no test hook ${message.action}`);
}

let replays = null;
/** The page's replays; their checkpoints hold the navigation memory (Python's MemoryFold). */
function pageReplays() {
  replays = replays || new PageReplays(storage.store, undefined, () => python.memory_fold());
  return replays;
}

function replay(message) {
  const { action, gameId } = message;
  pageReplays();
  if (action === 'open') {
    if (checkpointer) checkpointer.forget(gameId); // the timeline's replay checkpoints it from now on
    return replays.open(gameId);
  }
  if (action === 'refresh') return replays.refresh(gameId);
  if (action === 'moves') return Promise.resolve(replays.moves(gameId, message.from, message.to));
  if (action === 'frame') return replays.frame(gameId, message.move);
  if (action === 'resume') return replays.resume(gameId);
  if (action === 'close') return Promise.resolve(replays.close(gameId));
  return Promise.reject(new Error(`no replay action ${action}`));
}

function handle(message) {
  const { id } = message;
  switch (message.op) {
    case 'call':
      return answer(id, () => python.call(message.name, message.arguments),
        observed(message.name, message.arguments, true));
    case 'open':
      return answer(id, () => python.open_game(message.gameId), observed('observe'));
    case 'takeOver':
      return answer(id, () => python.take_over(message.gameId), observed('session'));
    case 'export':
      return answer(id, () => python.export_game(message.gameId));
    case 'import':
      return answer(id, () => python.import_game(message.text), (text) => {
        const result = JSON.parse(text);
        if (result.sessionId) book.imported(result.sessionId, result);
      });
    case 'replay':
      return answer(id, () => replay(message).then((value) => JSON.stringify(value ?? null)));
    case 'notes': // the page's autopilot: why it plays this game as it does (shown to every watching tab)
      book.noted(message.gameId, message.notes, message.playing);
      self.postMessage({ id, ok: true, text: '' });
      return null;
    case 'test':
      if (!testHooks) {
        self.postMessage({ id, ok: false, message: 'test hooks are off in this page' });
        return null;
      }
      return answer(id, () => test(message));
    default:
      self.postMessage({ id, ok: false, message: `unknown operation ${message.op}` });
      return null;
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.op === 'boot') {
    booted = booted || boot(message);
  } else if (booted) {
    booted.then(() => handle(message), (error) => self.postMessage({ id: message.id, ok: false,
      message: `the worker failed to start: ${error && error.message ? error.message : error}` }));
  }
};
