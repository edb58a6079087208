// main.js (server mode) - the page the native MCP server serves at / and
// /g/<sessionId> (py/nethack_webmcp/watch/), and the TV at /#/tv: the site's spectator modules
// reading the server's GET routes instead of a worker. No worker, no
// WebMCP, no controls: a person watches; the agent plays over stdio.
import { ServerHome } from './home.js';
import { ServerSpectator } from './spectator.js';
import { ServerTv } from './tv.js';

const TV_HASH = '#/tv'; // the TV: every game this server plays (server/tv.js)
const GAME_PATH = /^\/g\/([A-Za-z0-9_:-][A-Za-z0-9._:-]{0,95})$/; // watch/board.py's GAME_ID

// the server's page (watch/board.py) has both elements
const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const line = /** @type {HTMLElement} */ (document.getElementById('boot'));
line.dataset.field = 'connection';

/** The connection line under the title: watching, or why not and when it retries. */
function connection({ ok, retryMs, error }) {
  line.dataset.state = ok ? 'connected' : 'disconnected';
  line.textContent = ok ? 'read-only spectator: following this MCP server'
    : `cannot reach the MCP server (${error}); retrying in ${Math.round(retryMs / 1000)} s`;
}

const TITLE = document.title; // the server's shell names the page; a game's page names its game (game-view.js)
/** @type {{dispose(): void} | null} */
let view = null;
let onTv = false;

/** The view for the address: a game's page, the TV (/#/tv), or the root. */
function route() {
  let path = location.pathname;
  try { path = decodeURIComponent(path); } catch { /* keep it as it is */ }
  const match = GAME_PATH.exec(path);
  onTv = !match && location.hash === TV_HASH;
  if (view) view.dispose();
  document.title = onTv ? `TV — ${TITLE}` : TITLE;
  main.dataset.view = match ? 'game' : onTv ? 'tv' : 'home';
  view = match ? new ServerSpectator(main, match[1], connection)
    : onTv ? new ServerTv(main, connection) : new ServerHome(main, connection);
  window.nethackSpectator = view;
}
// the root and its TV are one page (/ and /#/tv): a hash change that moves between them re-routes;
// on a game's page, #move=N opens that move of its timeline
window.addEventListener('hashchange', () => {
  if ((location.hash === TV_HASH) !== onTv) route();
  else if (view instanceof ServerSpectator) view.follow();
});
route();
