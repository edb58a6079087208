// poller.js - follow one URL of the native server (the root's /api/recent):
// one outstanding request
// at a time, conditional (If-None-Match with the last ETag, so an unchanged
// game costs a 304), every POLL_MS while the page is visible. A hidden page
// does not poll (it catches up when shown again); a failed request backs
// off (1 s, 2 s, 4 s … 10 s) and says so. Only GET: watching sends the
// game nothing.
export const POLL_MS = 250;
const TIMEOUT_MS = 10_000;
const BACKOFF_MS = [1000, 2000, 4000, 8000, 10_000];

export class Poller {
  /** `onResponse(status, body, etag)` handles every answer (body: parsed JSON
   *  or null) and returns false to stop; `onConnection({ok, retryMs, error})`
   *  reports the connection.
   * @param {string} url
   * @param {{onResponse: (status: number, body: any, etag: string | null) => boolean | void,
   *          onConnection?: (connection: {ok: boolean, retryMs?: number, error?: string}) => void,
   *          interval?: number}} handlers */
  constructor(url, { onResponse, onConnection = () => {}, interval = POLL_MS }) {
    this.url = url;
    this.onResponse = onResponse;
    this.onConnection = onConnection;
    this.interval = interval;
    /** @type {string | null} */
    this.etag = null;
    this.failures = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.running = false;
    this.stopped = false;
    this.wake = () => { if (document.visibilityState === 'visible') this.poll(); };
    document.addEventListener('visibilitychange', this.wake);
    this.poll();
  }

  schedule(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.poll(), delay);
  }

  async poll() {
    if (this.stopped || this.running || document.visibilityState !== 'visible') return;
    clearTimeout(this.timer);
    this.running = true;
    let keepGoing = true;
    let delay = this.interval;
    try {
      /** @type {Record<string, string>} */
      const headers = this.etag ? { 'If-None-Match': this.etag } : {};
      const response = await fetch(this.url, { cache: 'no-store', headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const body = response.status === 304 ? null : await response.json().catch(() => null);
      if (response.ok) this.etag = response.headers.get('ETag');
      this.failures = 0;
      this.onConnection({ ok: true });
      keepGoing = this.onResponse(response.status, body, this.etag) !== false;
    } catch (error) {
      delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
      this.failures += 1;
      this.onConnection({ ok: false, retryMs: delay, error: String(error && error.message || error) });
    } finally {
      this.running = false;
    }
    if (keepGoing && !this.stopped) this.schedule(delay);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    document.removeEventListener('visibilitychange', this.wake);
  }
}
