// main.js - the core worker: boots Pyodide once, installs our wheel with
// micropip from the site's own origin, hosts the WASM engines and runs tool
// calls for the page.
//
// Page → worker:  {op:'boot', config, base, tabId}
//                 {id, op:'call', name, arguments}   arguments: JSON text
// Worker → page:  {type:'progress', stage, label}
//                 {type:'ready', timings, declarations}
//                 {type:'failed', stage, message}
//                 {id, ok:true, text} | {id, ok:false, message}   text: the frame as JSON
import { loadPyodide } from 'pyodide';
import { engineHost, prepareEngine } from './engine-host.js';
import { GameBook } from './games.js';

let python = null; // the nethack_webmcp.worker module (a PyProxy)
let book = null;
let booted = null;
const timings = {};
const origin = performance.now();

function mark(name) {
  timings[name] = Math.round(performance.now() - origin);
}

function progress(stage, label) {
  mark(stage);
  self.postMessage({ type: 'progress', stage, label });
}

async function boot({ config, base, tabId }) {
  const url = (path) => new URL(path, base).href;
  let stage = 'pyodide';
  try {
    progress('pyodide', 'Starting Python (Pyodide)…');
    const engineReady = prepareEngine(url(config.engine.script), url(config.engine.wasm));
    engineReady.catch(() => {}); // awaited below; keeps an early failure from going unhandled
    const pyodide = await loadPyodide({ indexURL: url(config.pyodide), stdout: () => {},
                                        stderr: (text) => console.warn(`[python] ${text}`) });
    stage = 'micropip';
    progress('micropip', 'Loading micropip…');
    const problems = [];
    await pyodide.loadPackage(url(config.micropip), { messageCallback: () => {},
                                                      errorCallback: (text) => problems.push(text) });
    if (problems.length) throw new Error(`cannot load ${config.micropip}: ${problems.join(' ')}`);
    mark('micropip.loaded');
    const micropip = pyodide.pyimport('micropip');
    stage = 'package';
    progress('package', 'Installing nethack_webmcp…');
    await micropip.install(url(config.wheel), { deps: false });
    stage = 'engine';
    progress('engine', 'Compiling the NetHack engine…');
    await engineReady;
    self.nethackEngineHost = engineHost;
    stage = 'start';
    progress('start', 'Starting the game host…');
    python = pyodide.pyimport('nethack_webmcp.worker');
    mark('imported');
    python.start();
    book = new GameBook({ spectate: (gameId) => JSON.parse(python.spectate(gameId)), tabId });
    mark('ready');
    self.postMessage({ type: 'ready', timings, declarations: JSON.parse(python.declarations()) });
  } catch (error) {
    self.postMessage({ type: 'failed', stage, message: String(error && error.message ? error.message : error) });
    throw error;
  }
}

async function call({ id, name, arguments: argumentsJson }) {
  try {
    const text = await python.call(name, argumentsJson);
    self.postMessage({ id, ok: true, text }); // the page parses it: one string clone, not an object's
    book.observe(name, JSON.parse(text));
  } catch (error) {
    self.postMessage({ id, ok: false, message: String(error && error.message ? error.message : error) });
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (message.op === 'boot') {
    booted = booted || boot(message);
  } else if (message.op === 'call') {
    booted.then(() => call(message), (error) => self.postMessage({ id: message.id, ok: false,
      message: `the worker failed to start: ${error && error.message ? error.message : error}` }));
  }
};
