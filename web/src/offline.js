// offline.js - the page's side of offline play: register the service worker
// (web/src/worker/sw.js, built as sw.js beside index.html) once the game host
// has booted, ask for persistent storage when a game is created, and say both
// in one line of the header (#offline; textContent only).
//
//   const offline = new OfflineLine(element);
//   offline.register(bridge.ready);   // after boot: installs the build's precache
//   offline.gameCreated();            // navigator.storage.persist(), once
//
// window.nethackSite.offline mirrors what the line says:
// {serviceWorker: 'unsupported'|'installing'|'ready'|'failed', version, persisted, newer}.
// `newer`: the version of a newer build that was installed while this page
// ran (the page itself stays on the build it was loaded with; the next load
// gets the new one, whole).

export class OfflineLine {
  /** @param {HTMLElement | null} element  @param {Record<string, any>} facts (window.nethackSite.offline) */
  constructor(element, facts) {
    this.element = element;
    this.facts = facts;
    Object.assign(facts, { serviceWorker: 'installing', version: null, persisted: null, newer: null });
    this.asked = false;
    if (navigator.storage && navigator.storage.persisted) {
      navigator.storage.persisted().then((persisted) => this.update({ persisted }), () => {});
    }
  }

  /** Register the service worker once `booted` resolves (its install fetches then find the HTTP cache warm). */
  register(booted) {
    if (!('serviceWorker' in navigator)) {
      this.update({ serviceWorker: 'unsupported' });
      return;
    }
    // once the page knows its build's worker, a change of controller to another version is a newer build
    // (the first visit's own claim comes before that, or answers the same version)
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      askVersion(navigator.serviceWorker.controller).then((newer) => {
        if (newer && this.facts.version && newer !== this.facts.version) this.update({ newer });
      });
    });
    booted.then(async () => {
      await navigator.serviceWorker.register('sw.js', { scope: './' });
      const registration = await navigator.serviceWorker.ready;
      const version = await askVersion(registration.active);
      this.update({ serviceWorker: 'ready', version });
    }).catch((error) => {
      this.update({ serviceWorker: 'failed', error: String(error && error.message || error) });
    });
  }

  /** A game was created: ask the browser to keep its storage (games live in IndexedDB). */
  gameCreated() {
    if (this.asked || !navigator.storage || !navigator.storage.persist) return;
    this.asked = true;
    navigator.storage.persist().then((persisted) => this.update({ persisted }), () => {});
  }

  update(change) {
    Object.assign(this.facts, change);
    if (!this.element) return;
    const { serviceWorker, persisted } = this.facts;
    const offline = {
      unsupported: 'Offline: not available in this browser',
      installing: 'Offline: not yet',
      ready: 'Offline: ready',
      failed: `Offline: unavailable (${this.facts.error})`,
    }[serviceWorker];
    const storage = persisted === null ? '' : persisted
      ? 'storage is persistent'
      : 'storage is not persistent (the browser may clear it)';
    const newer = this.facts.newer ? ' · a newer build is installed: reload to use it' : '';
    this.element.textContent = `${storage ? `${offline} · ${storage}` : offline}${newer}`;
    this.element.dataset.serviceWorker = serviceWorker;
    this.element.dataset.persisted = String(persisted);
  }
}

/** The build version the active service worker serves (null if it does not answer). */
function askVersion(worker) {
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 2000);
    channel.port1.onmessage = (event) => { clearTimeout(timer); resolve(event.data.version); };
    worker.postMessage({ op: 'version' }, [channel.port2]);
  });
}
