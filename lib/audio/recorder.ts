'use client';
/**
 * Browser recorder for one ambient session: microphone → AudioWorklet (16 kHz PCM16, 100 ms frames) →
 * FrameBuffer → binary frames on /ws/ambient. The socket is re-opened after any drop; each connection is
 * a new recording that resends every frame the server had not ACKed, so the visit loses no audio.
 */
import { FrameBuffer } from './frame-buffer';
import type { ConnectionState, RecorderActions, RecorderErrorKind, RecorderState } from '@/lib/stores/recorder';

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

const EOF_B64 = 'RU9G';
const KEEP_ALIVE_MS = 5_000;
/** How far ahead of real time a resent backlog may run (the server allows 30 s by default). */
const RESEND_AHEAD_MS = 15_000;
const BACKOFF_MS = [250, 500, 1_000, 2_000, 4_000];
/** Failed connection attempts in a row after which the session itself is checked over REST. */
const CHECK_AFTER_FAILURES = 3;

export function microphoneError(err: unknown): { kind: RecorderErrorKind; message: string } {
  const name = (err as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return {
      kind: 'mic-denied',
      message:
        'Microphone access is blocked. Allow the microphone for this site (the icon at the left of the address bar), then press Start recording again.',
    };
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') {
    return { kind: 'no-device', message: 'No microphone was found. Connect a microphone, choose it in the Microphone list, and press Start recording.' };
  }
  if (name === 'NotReadableError') {
    return { kind: 'mic-failed', message: 'The microphone is in use by another application or could not be started. Close the other application and try again.' };
  }
  return { kind: 'mic-failed', message: `The microphone could not be started (${(err as Error)?.message ?? 'unknown error'}).` };
}

function defaultWsUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/ambient`;
}

export async function listInputDevices(): Promise<Array<{ deviceId: string; label: string }>> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const all = await navigator.mediaDevices.enumerateDevices();
  return all
    .filter((d) => d.kind === 'audioinput')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || (d.deviceId === 'default' ? 'Default microphone' : `Microphone ${i + 1}`) }));
}

export class AmbientRecorder {
  private readonly buffer = new FrameBuffer({ probe: true });
  private readonly wsUrl: string;
  private ws: WebSocket | null = null;
  private media: MediaStream | null = null;
  private ctx: AudioContext | null = null;
  private node: AudioWorkletNode | null = null;
  private paused = false;
  private ending = false;
  private eofSent = false;
  private cancelled = false;
  private stopped = false;
  private failures = 0;
  private tokenRefreshes = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private keepAlive: ReturnType<typeof setInterval> | null = null;
  private endWaiters: Array<() => void> = [];
  private readonly onOnline = () => {
    if (!this.ws && !this.stopped) this.connectSoon(0);
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
    if (!navigator.mediaDevices?.getUserMedia) {
      this.store.patch({ phase: 'error', error: { kind: 'no-device', message: 'This browser cannot record audio here (a secure https:// page is required).' } });
      return;
    }
    try {
      this.media = await navigator.mediaDevices.getUserMedia({
        audio: {
          deviceId: deviceId ? { exact: deviceId } : undefined,
          channelCount: 1,
          // Call-style processing (made for a far end and a speaker) garbles speech for the recogniser;
          // an ambient room recording is sent as captured.
          echoCancellation: false,
          noiseSuppression: false,
          autoGainControl: false,
        },
      });
    } catch (err) {
      this.store.patch({ phase: 'error', error: microphoneError(err) });
      return;
    }
    // Labels are only readable once permission is granted.
    listInputDevices()
      .then((devices) => this.store.patch({ devices }))
      .catch(() => undefined);
    try {
      this.ctx = new AudioContext();
      await this.ctx.audioWorklet.addModule('/audio/pcm-worklet.js');
      const source = this.ctx.createMediaStreamSource(this.media);
      this.node = new AudioWorkletNode(this.ctx, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 1, channelCountMode: 'explicit', channelCount: 2 });
      // The worklet only runs while connected to the graph; a muted gain keeps it silent.
      const mute = this.ctx.createGain();
      mute.gain.value = 0;
      source.connect(this.node).connect(mute).connect(this.ctx.destination);
      this.node.port.onmessage = (e: MessageEvent) => this.onWorklet(e.data);
      await this.ctx.resume();
    } catch (err) {
      this.fail('mic-failed', `Audio processing could not start (${(err as Error).message}).`);
      return;
    }
    this.media.getAudioTracks()[0]?.addEventListener('ended', () => {
      if (!this.ending && !this.stopped) this.fail('no-device', 'The microphone was disconnected. Your audio so far is saved; reconnect a microphone and press Start recording to continue.');
    });
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    this.keepAlive = setInterval(() => this.sendJson({ type: 'EVENT', event: 'KEEP_ALIVE' }), KEEP_ALIVE_MS);
    this.store.patch({ phase: 'recording' });
    this.connect();
  }

  private onWorklet(msg: { type: string; pcm?: ArrayBuffer; level?: number }) {
    if (msg.type === 'flushed') {
      this.flushResolve?.();
      return;
    }
    if (msg.type !== 'frame' || !msg.pcm) return;
    this.store.patch({ level: msg.level ?? 0 });
    // Paused audio is not part of the visit: dropped here, before it is buffered.
    if (this.paused || this.cancelled) return;
    const samples = new Int16Array(msg.pcm);
    this.buffer.push(samples, Date.now() - (samples.length * 1000) / this.buffer.sampleRate);
    this.pump();
  }

  private flushResolve: (() => void) | null = null;
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
          ws = new WebSocket(this.wsUrl, ['AmbientAuth', this.opts.sessionId, token]);
        } catch {
          this.scheduleReconnect();
          return;
        }
        ws.binaryType = 'arraybuffer';
        this.ws = ws;
        let opened = false;
        ws.onopen = () => {
          opened = true;
          this.failures = 0;
          this.buffer.connectionOpened();
          const start = this.buffer.connectionStartTime() ?? Date.now();
          ws.send(JSON.stringify({ type: 'START_TIME', data: btoa(new Date(start).toISOString()) }));
          this.connectionOpenedAt = Date.now();
          if (this.cancelled) this.sendJson({ type: 'EVENT', event: 'CANCEL' });
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
    if (typeof data !== 'string') return;
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    switch (msg.type) {
      case 'ACK':
        if (typeof msg.received_ms === 'number') this.buffer.ack(msg.received_ms, typeof msg.session_ms === 'number' ? msg.session_ms : undefined);
        // A probe's ACK releases the backlog.
        this.pump();
        this.store.patch({ ackedMs: this.buffer.ackedMs, unackedMs: this.buffer.unackedMs });
        this.checkEnded();
        break;
      case 'TRANSCRIPT':
        if (typeof msg.text === 'string') {
          const start = Number(msg.start_offset_ms ?? 0);
          this.store.transcript({
            id: typeof msg.transcript_id === 'string' ? msg.transcript_id : `t-${start}`,
            text: msg.text,
            startMs: start,
            endMs: Number(msg.end_offset_ms ?? start),
            speaker: typeof msg.speaker === 'string' ? msg.speaker : undefined,
            isFinal: msg.is_final === true,
          });
        }
        break;
      case 'STATUS':
        if (msg.status === 'running' || msg.status === 'aborted' || msg.status === 'completed' || msg.status === 'skipped' || msg.status === 'failed') {
          if (this.eofSent || this.cancelled) this.finish();
        }
        break;
      case 'ERROR':
        if (typeof msg.message === 'string') this.store.patch({ error: { kind: 'server', message: msg.message } });
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
    if (code === 4401 && this.tokenRefreshes < 3) {
      this.tokenRefreshes++;
      void this.opts.getToken(true).then(() => this.connectSoon(0), () => this.scheduleReconnect());
      return;
    }
    if (code === 4404) return this.fail('session-lost', 'This visit no longer exists on the server, so recording stopped. Start a new visit.');
    if (code === 4409) return this.fail('session-lost', 'This visit has already ended on the server, so no more audio can be added. Start a new visit to record more.');
    if (code === 4403) return this.fail('session-lost', 'Your account may not record into this visit.');
    if (!opened) this.failures++;
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

  private scheduleReconnect() {
    if (this.stopped) return;
    this.setConnection(navigator.onLine === false ? 'offline' : 'reconnecting');
    this.connectSoon(BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]!);
  }

  private connectSoon(ms: number) {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, ms);
  }

  private sendJson(msg: unknown) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
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
        ws.send(JSON.stringify({ type: 'EVENT', event: 'PAUSE' }));
        this.pauseSent = true;
      }
      if (this.ending && !this.eofSent && this.buffer.allSent) {
        ws.send(JSON.stringify({ type: 'AUDIO', data: EOF_B64 }));
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
    if (this.pauseSent) this.sendJson({ type: 'EVENT', event: 'RESUME' });
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
    if (this.node && !wasPaused) {
      await new Promise<void>((resolve) => {
        this.flushResolve = resolve;
        this.node!.port.postMessage({ type: 'flush' });
        setTimeout(resolve, 1_000);
      });
      this.flushResolve = null;
    }
    this.ending = true;
    this.stopCapture();
    this.paused = false;
    if (this.pauseSent) this.sendJson({ type: 'EVENT', event: 'RESUME' });
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
    this.stopCapture();
    this.store.patch({ phase: 'finishing' });
    if (this.ws?.readyState === WebSocket.OPEN) {
      const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
      this.sendJson({ type: 'EVENT', event: 'CANCEL' });
      await Promise.race([done, new Promise((r) => setTimeout(r, 3_000))]);
    } else {
      // Offline: the CANCEL goes out as soon as a connection opens (see onopen).
      const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
      await Promise.race([done, new Promise((r) => setTimeout(r, 15_000))]);
    }
    this.store.patch({ phase: 'cancelled' });
    this.shutdown();
  }

  private finish() {
    if (this.stopped) return;
    this.store.patch({ phase: this.cancelled ? 'cancelled' : 'finished', connection: 'idle', unackedMs: this.buffer.unackedMs, ackedMs: this.buffer.ackedMs });
    this.shutdown();
  }

  /** Test hook: drops the socket as a network failure would. */
  dropConnection() {
    this.ws?.close(4000, 'dropped by test hook');
    // close() above runs onClose asynchronously; the recorder treats it exactly like a lost network.
  }

  private stopCapture() {
    this.media?.getTracks().forEach((t) => t.stop());
    this.media = null;
    this.node?.port.close();
    this.node = null;
    void this.ctx?.close().catch(() => undefined);
    this.ctx = null;
  }

  /** Stops everything; buffered audio that was never ACKed is discarded. */
  shutdown() {
    this.stopped = true;
    this.stopCapture();
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
