// bridge.js - the page's side of the core worker: boot it, follow its boot
// progress, forward tool calls and game operations to it, and keep what it
// says about the games it has loaded.
//
//   const bridge = new WorkerBridge(config, tabId, {testHooks, withoutJspi});
//   bridge.onprogress = ({stage, label}) => …;   // boot stages
//   bridge.ongames = (games) => …;               // {id: {owner, gate}}: this tab's loaded games
//   bridge.onlost = (gameId) => …;               // another tab took a game over
//   await bridge.ready;                          // rejects with {stage, message}
//   const frame = await bridge.call('observe', {sessionId});
//   const frame = await bridge.open(gameId);     // resume (or observe) a stored game
//   const frame = await bridge.takeOver(gameId); // steal it from the tab that owns it
//   const doc = await bridge.exportGame(gameId); // exchange document (or {error})
//   const result = await bridge.importGame(text);
//   bridge.publishNotes(gameId, lines, playing); // the autopilot's reasons, for every watching tab

export class WorkerBridge {
  constructor(config, tabId, { testHooks = false, withoutJspi = false } = {}) {
    /** @type {(progress: {stage: string, label: string}) => void} */
    this.onprogress = () => {};
    /** @type {(games: Record<string, {owner: boolean, gate: string}>) => void} */
    this.ongames = () => {};
    /** @type {(gameId: string) => void} */
    this.onlost = () => {};
    /** @type {(message: Record<string, any>) => void} */
    this.ontest = () => {};
    this.pending = new Map();
    this.nextId = 1;
    this.timings = null;
    this.games = {};
    this.stopped = null;
    this.worker = new Worker(new URL(config.worker, document.baseURI), { type: 'module' });
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (event) => this.receive(event.data, resolve, reject);
      this.worker.onerror = (event) => {
        event.preventDefault();
        const failure = { stage: 'worker', message: event.message || 'the worker script failed to load' };
        reject(failure);
        this.failAll(failure.message);
      };
    });
    this.ready.catch(() => {});
    this.worker.postMessage({ op: 'boot', config, base: document.baseURI, tabId, testHooks, withoutJspi });
  }

  receive(message, resolveReady, rejectReady) {
    if (message.type === 'progress') {
      this.onprogress(message);
    } else if (message.type === 'ready') {
      this.timings = message.timings;
      resolveReady(message);
    } else if (message.type === 'failed') {
      rejectReady({ stage: message.stage, message: message.message });
    } else if (message.type === 'games') {
      this.games = message.games;
      this.ongames(message.games);
    } else if (message.type === 'lost') {
      this.onlost(message.gameId);
    } else if (message.type === 'test') {
      this.ontest(message);
    } else if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!pending) return;
      if (message.ok) pending.resolve(message.text);
      else pending.reject(new Error(message.message));
    }
  }

  /** The worker died: no pending call will ever be answered. */
  failAll(message) {
    for (const pending of this.pending.values()) pending.reject(new Error(`the game host stopped: ${message}`));
    this.pending.clear();
  }

  /** One request to the worker; resolves with its answer's text. */
  request(op, fields) {
    if (this.stopped) return Promise.reject(new Error(`the game host stopped: ${this.stopped}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, ...fields });
    });
  }

  /** One tool call; resolves with the frame (error frames included). */
  async call(name, args) {
    return JSON.parse(await this.request('call', { name, arguments: JSON.stringify(args ?? {}) }));
  }

  async open(gameId) {
    return JSON.parse(await this.request('open', { gameId }));
  }

  async takeOver(gameId) {
    return JSON.parse(await this.request('takeOver', { gameId }));
  }

  /** The exchange document as JSON text, or throws with its {code, message}. */
  async exportGame(gameId) {
    const text = await this.request('export', { gameId });
    if (text.startsWith('{"error"')) throw Object.assign(new Error(JSON.parse(text).error.message), JSON.parse(text).error);
    return text;
  }

  async importGame(text) {
    return JSON.parse(await this.request('import', { text }));
  }

  /** Hand the worker the autopilot's latest notes for a game it owns: it
   *  writes them into the game's snapshot, which every tab watching reads. */
  publishNotes(gameId, notes, playing) {
    return this.request('notes', { gameId, notes, playing }).catch(() => {}); // a stopped worker shows nothing more
  }

  /** Test hooks (answered only when the worker was booted with testHooks). */
  test(action, fields) {
    return this.request('test', { action, ...fields });
  }

  /** Test hook: kill the worker now, whatever it is doing. */
  terminate(reason = 'terminated') {
    this.worker.terminate();
    this.stopped = reason;
    this.failAll(reason);
  }
}
