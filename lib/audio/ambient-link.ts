'use client';
/**
 * The recorder's connection to /ws/ambient, kept up for as long as the recorder wants it: every drop is
 * followed by another attempt (backoff with jitter, capped at 4 s; longer after a 4429 refusal), at once
 * when the browser comes back online, the tab becomes visible, or the app reaches the server with any
 * other request (`retryNow`). Only a refusal no retry can fix (visit gone or ended, no access, signed out)
 * stops it. Knows nothing of audio: the recorder gets each opened socket and its messages.
 */
import { AUTH_PROTOCOL, CLOSE, eventFrame, parseServerFrame, type ClientFrame } from '@/lib/contracts/stream-protocol';
import { CHECK_AFTER_FAILURES, CONNECT_TIMEOUT_MS, KEEP_ALIVE_MS, reconnectDelayMs, STALL_MS, TOKEN_TIMEOUT_MS } from './recorder-policy';

export type LinkState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface LinkStatus {
  state: LinkState;
  /** When the connection was lost (ms since epoch), or null while connected or never connected. */
  downSince: number | null;
  /** When the next attempt starts, while one is scheduled. */
  nextAttemptAt: number | null;
  /** Connections lost so far. */
  reconnects: number;
}

export interface LinkOptions {
  url: string;
  sessionId: string;
  getToken(fresh: boolean): Promise<string>;
  /** The session's status from the REST API, or null when it no longer exists (404). */
  checkSession(): Promise<string | null>;
  onOpen(ws: WebSocket): void;
  onMessage(data: unknown): void;
  /** A connection closed (opened or not); true when the recorder needs no other one. */
  onClosed(code: number): boolean;
  /** A refusal that no retry fixes. */
  onFatal(kind: 'session-lost' | 'signed-out', message: string): void;
  onStatus(status: LinkStatus): void;
  /** Whether audio sent on the open connection still waits for its ACK (for the stall check). */
  awaitingAck(): boolean;
}

/**
 * One line in the browser console per connection event (attempt, open, close with its code, retry delay):
 * what support needs to tell a dead network from a refusing server. Codes and delays only, no content.
 */
const trace = (...what: unknown[]) => console.info('[recorder link]', ...what);

const GONE = 'This visit no longer exists on the server, so recording stopped. Start a new visit.';

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e: unknown) => (clearTimeout(t), reject(e)),
    );
  });
}

export class AmbientLink {
  private ws: WebSocket | null = null;
  private running = false;
  private tokenPending = false;
  private freshToken = false;
  private failures = 0;
  /** Refusals for load (4429) since the server last acknowledged audio. */
  private loadRefusals = 0;
  private everOpened = false;
  private heardSinceOpen = false;
  private lastHeardAt = 0;
  private status: LinkStatus = { state: 'idle', downSince: null, nextAttemptAt: null, reconnects: 0 };
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private lastKeepAlive = 0;
  /** A renewal's connection is being opened (see renew): the page keeps showing "connected" meanwhile. */
  private renewing = false;

  constructor(private readonly opts: LinkOptions) {}

  private readonly onOnline = () => {
    trace('online event');
    this.failures = 0;
    this.loadRefusals = 0;
    if (this.ws?.readyState === WebSocket.CONNECTING) this.abandon(this.ws);
    this.retryNow();
  };
  /** No network: the socket cannot carry audio any more, even if the browser has not noticed yet. */
  private readonly onOffline = () => {
    trace('offline event');
    if (this.ws) this.abandon(this.ws);
    this.patch({ state: 'offline' });
  };
  private readonly onVisible = () => {
    if (document.visibilityState === 'visible') this.retryNow();
  };

  get isRunning(): boolean {
    return this.running;
  }

  /** The open socket, or null. */
  get socket(): WebSocket | null {
    return this.ws?.readyState === WebSocket.OPEN ? this.ws : null;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    document.addEventListener('visibilitychange', this.onVisible);
    this.ticker = setInterval(() => this.tick(), 1_000);
    this.connect();
  }

  /** Closes the connection and makes no other attempt. */
  stop(): void {
    this.running = false;
    this.renewing = false;
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    document.removeEventListener('visibilitychange', this.onVisible);
    if (this.ticker) clearInterval(this.ticker);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.ticker = this.retryTimer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      if (ws.readyState <= WebSocket.OPEN) ws.close(1000, 'recorder stopped');
    }
    this.patch({ state: 'idle', downSince: null, nextAttemptAt: null });
  }

  /**
   * Closes the open connection on purpose and opens the next one at once: the recorder has finished a
   * recording part on it. A client close is what the server takes for a dropped connection: the recording
   * closes with the audio it stored and the session stays open for the next (EOF would end the visit, CANCEL
   * abort it, and ABORT would wait for the live recogniser's tail first). Nothing failed, so no backoff, no
   * "reconnecting" on the page and no lost connection counted; if the next connection fails, that is an
   * ordinary failed attempt.
   */
  renew(): void {
    const ws = this.ws;
    if (!this.running || !ws) return;
    trace('recording part complete: next connection');
    ws.onopen = ws.onmessage = ws.onclose = null;
    this.ws = null;
    if (ws.readyState <= WebSocket.OPEN) ws.close(CLOSE.NORMAL, 'recording part complete');
    this.renewing = true;
    this.connect();
  }

  /**
   * Something shows the server may be reachable again: a waiting attempt starts now. Not after a refusal
   * for load, whose longer wait is the point (the app's other requests succeed meanwhile).
   */
  retryNow(): void {
    if (!this.running || this.ws || this.tokenPending || this.loadRefusals > 0) return;
    this.connect();
  }

  /** The server stored audio: a refusal for load is forgiven. */
  acknowledged(): void {
    this.loadRefusals = 0;
  }

  send(frame: ClientFrame): void {
    this.socket?.send(JSON.stringify(frame));
  }

  private patch(p: Partial<LinkStatus>) {
    this.status = { ...this.status, ...p };
    this.opts.onStatus(this.status);
  }

  private tick() {
    const ws = this.socket;
    if (!ws) return;
    const now = Date.now();
    if (now - this.lastKeepAlive >= KEEP_ALIVE_MS) {
      this.lastKeepAlive = now;
      ws.send(JSON.stringify(eventFrame('KEEP_ALIVE')));
    }
    // Open but the server never spoke (it sends STATUS at once), or audio awaiting its ACK and silence.
    if ((!this.heardSinceOpen && now - this.lastHeardAt > CONNECT_TIMEOUT_MS) || (this.opts.awaitingAck() && now - this.lastHeardAt > STALL_MS)) this.abandon(ws);
  }

  private connect() {
    if (!this.running || this.ws || this.tokenPending) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const offline = navigator.onLine === false;
    if (!this.renewing || offline) this.patch({ state: offline ? 'offline' : this.everOpened || this.failures > 0 ? 'reconnecting' : 'connecting', nextAttemptAt: null });
    this.tokenPending = true;
    trace('attempt', { failures: this.failures, loadRefusals: this.loadRefusals, onLine: navigator.onLine });
    const fresh = this.freshToken;
    this.freshToken = false;
    withTimeout(this.opts.getToken(fresh), TOKEN_TIMEOUT_MS).then(
      (token) => {
        this.tokenPending = false;
        if (this.running && !this.ws) this.open(token);
      },
      (err: unknown) => {
        this.tokenPending = false;
        const code = (err as { code?: number })?.code;
        trace('token request failed', code ?? String((err as Error)?.message ?? err));
        if (code === 401 || code === 403) {
          this.opts.onFatal('signed-out', 'Your sign-in has expired. Sign in again; the audio not yet on the server is kept on this device and sent when you reopen this visit.');
          return;
        }
        this.failures++;
        this.markDown();
        this.schedule();
      },
    );
  }

  private open(token: string) {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.opts.url, [AUTH_PROTOCOL, this.opts.sessionId, token]);
    } catch {
      this.failures++;
      this.schedule();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    let opened = false;
    // Once open or closed, the check finds nothing to give up.
    setTimeout(() => ws.readyState === WebSocket.CONNECTING && this.abandon(ws), CONNECT_TIMEOUT_MS);
    ws.onopen = () => {
      trace('socket open');
      opened = true;
      this.everOpened = true;
      this.heardSinceOpen = false;
      this.lastHeardAt = this.lastKeepAlive = Date.now();
      this.opts.onOpen(ws);
    };
    ws.onmessage = (e) => {
      this.lastHeardAt = Date.now();
      // A refusal (ERROR, then close) is not a connection.
      if (!this.heardSinceOpen && !(typeof e.data === 'string' && parseServerFrame(e.data)?.type === 'ERROR')) {
        // The server took the connection (it speaks first: STATUS ready): only now is the recorder
        // "connected", and the backoff starts over. A proxy or a dead network can complete a handshake too.
        this.heardSinceOpen = true;
        this.renewing = false;
        trace('server spoke: connected');
        this.failures = 0;
        this.patch({ state: 'connected', downSince: null, nextAttemptAt: null });
      }
      this.opts.onMessage(e.data);
    };
    ws.onclose = (e) => this.onClose(ws, e.code, opened);
  }

  /** A hung handshake or a silent connection counts as a dropped one; nothing it does later is heard. */
  private abandon(ws: WebSocket) {
    trace('giving up on the socket', { state: ws.readyState, heard: this.heardSinceOpen, silentMs: Date.now() - this.lastHeardAt });
    const opened = ws.readyState === WebSocket.OPEN;
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    this.onClose(ws, 1006, opened);
  }

  private markDown() {
    if (this.status.downSince === null) this.patch({ downSince: Date.now() });
  }

  private onClose(ws: WebSocket, code: number, opened: boolean) {
    if (this.ws !== ws) return;
    trace('closed', { code, opened });
    this.ws = null;
    this.renewing = false;
    if (opened) this.patch({ reconnects: this.status.reconnects + 1 });
    if (this.opts.onClosed(code) || !this.running) return;
    this.markDown();
    if (code === CLOSE.NOT_FOUND) return this.fatal('session-lost', GONE);
    if (code === CLOSE.CONFLICT) return this.fatal('session-lost', 'This visit has already ended on the server (or is recording in another tab), so no more audio can be added here.');
    if (code === CLOSE.FORBIDDEN) return this.fatal('session-lost', 'Your account may not record into this visit.');
    // A token the server no longer accepts (expired, keys rotated, or a server restarted): a fresh one next time.
    if (code === CLOSE.UNAUTHORISED) this.freshToken = true;
    if (code === CLOSE.TOO_FAST) this.loadRefusals++;
    // A connection the server closed before saying anything is a failed attempt, so it backs off too.
    else if (!opened || !this.heardSinceOpen) this.failures++;
    if (this.failures >= CHECK_AFTER_FAILURES && this.failures % CHECK_AFTER_FAILURES === 0 && navigator.onLine !== false) {
      // The browser hides why an upgrade was refused; the REST API tells whether the session is gone.
      void this.opts.checkSession().then(
        (status) => {
          if (!this.running) return;
          if (status === null) this.fatal('session-lost', GONE);
          else if (['completed', 'skipped', 'failed', 'aborted'].includes(status)) this.fatal('session-lost', `This visit has already ended (${status}), so no more audio can be added.`);
          else this.schedule();
        },
        () => this.schedule(),
      );
      return;
    }
    this.schedule();
  }

  private fatal(kind: 'session-lost' | 'signed-out', message: string) {
    this.stop();
    this.opts.onFatal(kind, message);
  }

  private schedule() {
    this.renewing = false;
    if (!this.running || this.ws) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const delay = reconnectDelayMs(this.failures, this.loadRefusals);
    trace('next attempt in', delay, 'ms');
    this.patch({ state: navigator.onLine === false ? 'offline' : 'reconnecting', nextAttemptAt: Date.now() + delay });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}
