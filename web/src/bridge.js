// bridge.js - the page's side of the core worker: boot it, follow its boot
// progress, and forward tool calls to it.
//
//   const bridge = new WorkerBridge(config, tabId);
//   bridge.onprogress = ({stage, label}) => …;   // boot stages
//   await bridge.ready;                          // rejects with {stage, message}
//   const frame = await bridge.call('observe', {sessionId});

export class WorkerBridge {
  constructor(config, tabId) {
    this.onprogress = () => {};
    this.pending = new Map();
    this.nextId = 1;
    this.timings = null;
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
    this.worker.postMessage({ op: 'boot', config, base: document.baseURI, tabId });
  }

  receive(message, resolveReady, rejectReady) {
    if (message.type === 'progress') {
      this.onprogress(message);
    } else if (message.type === 'ready') {
      this.timings = message.timings;
      resolveReady(message);
    } else if (message.type === 'failed') {
      rejectReady({ stage: message.stage, message: message.message });
    } else if (message.id !== undefined) {
      const pending = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!pending) return;
      if (message.ok) pending.resolve(JSON.parse(message.text));
      else pending.reject(new Error(message.message));
    }
  }

  /** The worker died: no pending call will ever be answered. */
  failAll(message) {
    for (const pending of this.pending.values()) pending.reject(new Error(`the game host stopped: ${message}`));
    this.pending.clear();
  }

  /** One tool call; resolves with the frame (error frames included). */
  call(name, args) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op: 'call', name, arguments: JSON.stringify(args ?? {}) });
    });
  }
}
