// sw.js - the site's service worker: the page boots and plays offline after
// one visit. Built into web/dist/sw.js by scripts/build-site, which writes the
// build's precache manifest in front of this code:
//
//   self.PRECACHE = {version, index, files: [{url, sha256, size, group?}]}
//
// `url` is relative to the worker's scope and spelled exactly as the page and
// the core worker request it (with its ?v=<hash> when it has one). The cache
// is named after the build's version (a hash over every file's sha256), so a
// new build installs into a new cache and deletes every older one when it
// activates: a page is served one build, never a mix. Each precached body is
// checked against its sha256 before it is stored (a stale HTTP cache cannot
// slip an old file into a new build's cache).
//
// `group` names an engine build (jspi, asyncify): only the build this browser
// runs (the same test as engine-builds.js) is fetched at install; the other is
// stored the first time it is requested (the page's no-JSPI test mode).
//
// Served cache-first: a navigation to the scope (or index.html) gets the
// build's index.html, any other request for a manifest file its stored copy;
// everything else goes to the network untouched.
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
const manifest = /** @type {{version: string, index: string, files: {url: string, sha256: string, group?: string}[]}} */
  (/** @type {any} */ (self).PRECACHE);
const PREFIX = 'nethack-site-';
const CACHE = `${PREFIX}${manifest.version}`;
const scope = new URL(sw.registration.scope);
const absolute = (url) => new URL(url, scope).href;
const byUrl = new Map(manifest.files.map((file) => [absolute(file.url), file]));
const indexUrl = absolute(manifest.index);
const engineGroup = typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function'
  ? 'jspi' : 'asyncify';

const hex = (buffer) => Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Fetch one manifest file and store it if its body is the build's. */
async function store(cache, file, mode) {
  const response = await fetch(absolute(file.url), { cache: mode });
  if (!response.ok) throw new Error(`${file.url}: HTTP ${response.status}`);
  const digest = hex(await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer()));
  if (digest !== file.sha256) {
    if (mode !== 'reload') return store(cache, file, 'reload'); // the HTTP cache held another build's copy
    throw new Error(`${file.url}: its content is not this build's (sha256 ${digest})`);
  }
  await cache.put(absolute(file.url), response.clone());
  return response;
}

sw.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const wanted = manifest.files.filter((file) => !file.group || file.group === engineGroup);
    await Promise.all(wanted.map((file) => store(cache, file, 'default')));
    await sw.skipWaiting();
  })());
});

sw.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

/** The build's answer to a request, or null when it is not one of its files. */
function keyOf(request) {
  const url = new URL(request.url);
  if (url.origin !== scope.origin || request.method !== 'GET') return null;
  url.hash = '';
  if (request.mode === 'navigate') {
    return url.pathname === scope.pathname || url.href === indexUrl ? indexUrl : null;
  }
  return byUrl.has(url.href) ? url.href : null;
}

sw.addEventListener('fetch', (event) => {
  const key = keyOf(event.request);
  if (!key) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(key);
    if (hit) return hit;
    const file = byUrl.get(key);
    return file ? store(cache, file, 'default') : fetch(event.request);
  })());
});

// The page asks which build serves it (the offline line and the tests).
sw.addEventListener('message', (event) => {
  if (event.data && event.data.op === 'version' && event.ports[0]) {
    event.ports[0].postMessage({ version: manifest.version, cache: CACHE });
  }
});
