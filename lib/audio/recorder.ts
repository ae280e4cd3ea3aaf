'use client';
/**
 * Browser recorder for one ambient session: microphone → AudioWorklet (16 kHz PCM16, 100 ms frames) →
 * FrameBuffer → binary frames on /ws/ambient. The socket is re-opened after any drop; each connection is
 * a new recording that resends every frame the server had not ACKed, so the visit loses no audio.
 */
import { AUTH_PROTOCOL, CLOSE, EOF_FRAME, eventFrame, parseServerFrame, type ClientFrame } from '@/lib/contracts/stream-protocol';
import type { ConnectionState, RecorderActions, RecorderErrorKind, RecorderState } from '@/lib/stores/recorder';
import { FrameBuffer } from './frame-buffer';
import { listInputDevices, MicrophoneCapture } from './microphone';
import { CHECK_AFTER_FAILURES, CONNECT_TIMEOUT_MS, defaultWsUrl, ENDED, KEEP_ALIVE_MS, reconnectDelayMs, RESEND_AHEAD_MS } from './recorder-policy';

export { listInputDevices, microphoneError } from './microphone';

type Store = { getState(): RecorderState & RecorderActions };

export interface RecorderOptions {
  sessionId: string;
  store: Store;
  /** The clinician's service token; `fresh` forces a new one (after a 4401). */
  getToken(fresh: boolean): Promise<string>;
  /** The session's status from the REST API, or null when it no longer exists (404). */
  checkSession(): Promise<string | null>;
  wsUrl?: string;
}

export class AmbientRecorder {
  private readonly buffer = new FrameBuffer({ probe: true });
  private readonly wsUrl: string;
  private ws: WebSocket | null = null;
  private readonly mic = new MicrophoneCapture({
    onFrame: (samples, level) => this.onFrame(samples, level),
    onEnded: () => {
      if (!this.ending && !this.stopped) this.fail('no-device', 'The microphone was disconnected. Your audio so far is saved; reconnect a microphone and press Start recording to continue.');
    },
  });
  private paused = false;
  private ending = false;
  private eofSent = false;
  private cancelled = false;
  private stopped = false;
  private failures = 0;
  /** Refusals for load (4429) since the server last acknowledged audio. */
  private loadRefusals = 0;
  private tokenRefreshes = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  private endWaiters: Array<() => void> = [];
  private readonly onOnline = () => {
    if (this.stopped) return;
    if (this.ws?.readyState === WebSocket.CONNECTING) this.abandon(this.ws);
    if (!this.ws) this.connectSoon(0);
  };
  private readonly onOffline = () => {
    if (!this.stopped) this.setConnection('offline');
  };

  constructor(private readonly opts: RecorderOptions) {
    this.wsUrl = opts.wsUrl ?? defaultWsUrl();
  }

  private get store() {
    return this.opts.store.getState();
  }

  private setConnection(connection: ConnectionState) {
    this.store.patch({ connection });
  }

  private fail(kind: RecorderErrorKind, message: string) {
    this.store.patch({ phase: 'error', error: { kind, message } });
    this.shutdown();
  }

  /** Opens the microphone and the socket. Microphone errors are reported in the store, not thrown. */
  async start(deviceId?: string): Promise<void> {
    this.store.patch({ phase: 'starting', error: null });
    const started = await this.mic.start(deviceId);
    if (started.ok || started.opened) {
      // Labels are only readable once permission is granted.
      listInputDevices()
        .then((devices) => this.store.patch({ devices }))
        .catch(() => undefined);
    }
    if (!started.ok) {
      if (started.opened) this.fail(started.kind, started.message);
      else this.store.patch({ phase: 'error', error: { kind: started.kind, message: started.message } });
      return;
    }
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    this.keepAlive = setInterval(() => this.sendFrame(eventFrame('KEEP_ALIVE')), KEEP_ALIVE_MS);
    this.store.patch({ phase: 'recording' });
    this.connect();
  }

  private onFrame(samples: Int16Array, level: number) {
    this.store.patch({ level });
    // Paused audio is not part of the visit: dropped here, before it is buffered.
    if (this.paused || this.cancelled) return;
    this.buffer.push(samples, Date.now() - (samples.length * 1000) / this.buffer.sampleRate);
    this.pump();
  }

  private connectionOpenedAt = 0;
  /** PAUSE goes out only after the audio buffered before it: the server refuses audio while paused. */
  private pauseSent = false;
  private pumpTimer: ReturnType<typeof setTimeout> | null = null;

  private connect() {
    if (this.stopped || this.ws) return;
    this.setConnection(this.store.reconnects > 0 || this.failures > 0 ? (navigator.onLine === false ? 'offline' : 'reconnecting') : 'connecting');
    void this.opts
      .getToken(false)
      .then((token) => {
        if (this.stopped || this.ws) return;
        let ws: WebSocket;
        try {
          ws = new WebSocket(this.wsUrl, [AUTH_PROTOCOL, this.opts.sessionId, token]);
        } catch {
          this.scheduleReconnect();
          return;
        }
        ws.binaryType = 'arraybuffer';
        this.ws = ws;
        let opened = false;
        // Once open or closed, the check finds nothing to give up.
        setTimeout(() => ws.readyState === WebSocket.CONNECTING && this.abandon(ws), CONNECT_TIMEOUT_MS);
        ws.onopen = () => {
          opened = true;
          this.failures = 0;
          this.buffer.connectionOpened();
          const start = this.buffer.connectionStartTime() ?? Date.now();
          this.sendFrame({ type: 'START_TIME', data: btoa(new Date(start).toISOString()) });
          this.connectionOpenedAt = Date.now();
          if (this.cancelled) this.sendFrame(eventFrame('CANCEL'));
          this.pauseSent = false;
          this.setConnection('connected');
          this.pump();
        };
        ws.onmessage = (e) => this.onServer(e.data);
        ws.onclose = (e) => this.onClose(ws, e.code, opened);
      })
      .catch((err: unknown) => {
        const code = (err as { code?: number })?.code;
        if (code === 401 || code === 403) this.fail('signed-out', 'Your sign-in has expired. Sign in again; the audio recorded so far on this page will be lost if you close it.');
        else this.scheduleReconnect();
      });
  }

  private onServer(data: unknown) {
    const msg = typeof data === 'string' ? parseServerFrame(data) : null;
    if (!msg) return;
    switch (msg.type) {
      case 'ACK':
        this.loadRefusals = 0;
        this.buffer.ack(msg.received_ms, msg.session_ms);
        // A probe's ACK releases the backlog.
        this.pump();
        this.store.patch({ ackedMs: this.buffer.ackedMs, unackedMs: this.buffer.unackedMs });
        this.checkEnded();
        break;
      case 'TRANSCRIPT':
        this.store.transcript({
          id: msg.transcript_id ?? `t-${msg.start_offset_ms}`,
          text: msg.text,
          startMs: msg.start_offset_ms,
          endMs: msg.end_offset_ms,
          speaker: msg.speaker,
          isFinal: msg.is_final,
        });
        break;
      case 'STATUS':
        if (ENDED.includes(msg.status) && (this.eofSent || this.cancelled)) this.finish();
        break;
      case 'ERROR':
        this.store.patch({ error: { kind: 'server', message: msg.message } });
        break;
    }
  }

  private onClose(ws: WebSocket, code: number, opened: boolean) {
    if (this.ws !== ws) return;
    this.ws = null;
    this.buffer.connectionClosed();
    if (this.stopped) return;
    // EOF follows the last frame on the same connection, so once it was sent the server has the audio.
    if (this.eofSent || this.cancelled) {
      this.finish();
      return;
    }
    if (code === CLOSE.UNAUTHORISED && this.tokenRefreshes < 3) {
      this.tokenRefreshes++;
      void this.opts.getToken(true).then(() => this.connectSoon(0), () => this.scheduleReconnect());
      return;
    }
    if (code === CLOSE.NOT_FOUND) return this.fail('session-lost', 'This visit no longer exists on the server, so recording stopped. Start a new visit.');
    if (code === CLOSE.CONFLICT) return this.fail('session-lost', 'This visit has already ended on the server, so no more audio can be added. Start a new visit to record more.');
    if (code === CLOSE.FORBIDDEN) return this.fail('session-lost', 'Your account may not record into this visit.');
    if (!opened) this.failures++;
    if (code === CLOSE.TOO_FAST) this.loadRefusals++;
    this.store.patch({ reconnects: this.store.reconnects + 1 });
    if (this.failures >= CHECK_AFTER_FAILURES && this.failures % CHECK_AFTER_FAILURES === 0 && navigator.onLine !== false) {
      // The browser hides why an upgrade was refused; the REST API tells whether the session is gone.
      void this.opts.checkSession().then(
        (status) => {
          if (status === null) this.fail('session-lost', 'This visit no longer exists on the server, so recording stopped. Start a new visit.');
          else if (['completed', 'skipped', 'failed', 'aborted'].includes(status))
            this.fail('session-lost', `This visit has already ended (${status}), so no more audio can be added.`);
          else this.scheduleReconnect();
        },
        () => this.scheduleReconnect(),
      );
      return;
    }
    this.scheduleReconnect();
  }

  /** A hung handshake counts as a failed attempt; nothing it does later is heard. */
  private abandon(ws: WebSocket) {
    ws.onopen = ws.onmessage = ws.onclose = null;
    ws.close();
    this.onClose(ws, 1006, false);
  }

  private scheduleReconnect() {
    if (this.stopped) return;
    this.setConnection(navigator.onLine === false ? 'offline' : 'reconnecting');
    this.connectSoon(reconnectDelayMs(this.failures, this.loadRefusals));
  }

  private connectSoon(ms: number) {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, ms);
  }

  private sendFrame(frame: ClientFrame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  /**
   * Sends whatever the current connection has not carried yet, then EOF when ending. A backlog (after a
   * drop) goes out at most RESEND_AHEAD_MS ahead of real time, because the server closes a stream that
   * runs too far ahead; the rest follows on a timer.
   */
  private pump() {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN && this.buffer.isConnected && !this.cancelled) {
      const allowanceMs = RESEND_AHEAD_MS + (Date.now() - this.connectionOpenedAt) - this.buffer.sentInConnectionMs;
      // Whole milliseconds, so recordings split on the server's millisecond timeline.
      for (const f of this.buffer.takeUnsent(Math.floor(Math.max(0, allowanceMs)) * (this.buffer.sampleRate / 1000))) ws.send(f);
      if (!this.buffer.allSent && !this.buffer.awaitingProbeAck && !this.pumpTimer) {
        this.pumpTimer = setTimeout(() => {
          this.pumpTimer = null;
          this.pump();
        }, 250);
      }
      if (this.paused && !this.pauseSent && this.buffer.allSent) {
        ws.send(JSON.stringify(eventFrame('PAUSE')));
        this.pauseSent = true;
      }
      if (this.ending && !this.eofSent && this.buffer.allSent) {
        ws.send(JSON.stringify(EOF_FRAME));
        this.eofSent = true;
      }
    }
    this.store.patch({ elapsedMs: this.buffer.totalMs, unackedMs: this.buffer.unackedMs, ackedMs: this.buffer.ackedMs });
  }

  pause() {
    if (this.store.phase !== 'recording') return;
    this.paused = true;
    this.store.patch({ phase: 'paused' });
    this.pump();
  }

  resume() {
    if (this.store.phase !== 'paused') return;
    this.paused = false;
    if (this.pauseSent) this.sendFrame(eventFrame('RESUME'));
    this.pauseSent = false;
    this.store.patch({ phase: 'recording' });
  }

  /**
   * Ends capture: the last partial frame is flushed from the worklet, every buffered frame is sent (after
   * reconnecting if need be), then EOF. Resolves once the server has the audio.
   */
  async end(): Promise<void> {
    if (this.ending || this.stopped) return;
    const wasPaused = this.paused;
    this.store.patch({ phase: 'finishing' });
    // Audio from a paused stretch is not part of the visit, so only a live recorder is flushed.
    if (!wasPaused) await this.mic.flush();
    this.ending = true;
    this.mic.stop();
    this.paused = false;
    if (this.pauseSent) this.sendFrame(eventFrame('RESUME'));
    this.pauseSent = false;
    const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
    this.pump();
    await done;
  }

  private checkEnded() {
    if (this.eofSent && this.buffer.allAcked) this.finish();
  }

  /** Abandons the visit: the server marks it aborted and keeps nothing for a note. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.mic.stop();
    this.store.patch({ phase: 'finishing' });
    const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
    // Offline, the CANCEL goes out as soon as a connection opens (see onopen), so it is given longer.
    const open = this.ws?.readyState === WebSocket.OPEN;
    if (open) this.sendFrame(eventFrame('CANCEL'));
    await Promise.race([done, new Promise((r) => setTimeout(r, open ? 3_000 : 15_000))]);
    this.store.patch({ phase: 'cancelled' });
    this.shutdown();
  }

  private finish() {
    if (this.stopped) return;
    this.store.patch({ phase: this.cancelled ? 'cancelled' : 'finished', connection: 'idle', unackedMs: this.buffer.unackedMs, ackedMs: this.buffer.ackedMs });
    this.shutdown();
  }

  /** Stops everything; buffered audio that was never ACKed is discarded. */
  shutdown() {
    this.stopped = true;
    this.mic.stop();
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, 'recorder stopped');
    for (const w of this.endWaiters.splice(0)) w();
  }

  get hasUnsavedAudio(): boolean {
    return !this.buffer.allAcked;
  }
}
