'use client';
/**
 * Browser recorder for one ambient session: microphone (microphone.ts) → FrameBuffer → binary frames on
 * /ws/ambient, over a connection that AmbientLink keeps re-opening after any drop. Each connection is a new
 * recording that resends every frame the server had not ACKed, and every unACKed frame is also kept in
 * IndexedDB (unsent-store.ts), so neither an outage nor a reload loses audio. docs/streaming.md, "Recorder".
 */
import { CLOSE, EOF_FRAME, eventFrame, parseServerFrame, type PartStartReason } from '@/lib/contracts/stream-protocol';
import type { RecorderActions, RecorderErrorKind, RecorderState } from '@/lib/stores/recorder';
import { AmbientLink, type LinkStatus } from './ambient-link';
import { FrameBuffer } from './frame-buffer';
import { listInputDevices, MicrophoneCapture } from './microphone';
import { defaultWsUrl, ENDED } from './recorder-policy';
import { CaptureWriter, type KeptCapture } from './unsent-store';
import { CaptureClock } from './capture-clock';
import { CaptureStarts, startTimeFrame } from './capture-starts';

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
  /** Audio an earlier page kept on this device: this recorder continues its capture and sends it first. */
  kept?: KeptCapture | null;
  /** Keep unACKed audio in IndexedDB (default true). */
  persist?: boolean;
  /** The visit was recording before this page (its first part then follows a stretch nothing recorded). */
  continuesVisit?: boolean;
}

/** A page's capture id; randomUUID exists only in secure contexts, where a microphone does too, but not in every test. */
const captureId = () => globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export class AmbientRecorder {
  private readonly buffer: FrameBuffer;
  private readonly writer: CaptureWriter | null;
  private readonly link: AmbientLink;
  private readonly mic = new MicrophoneCapture({
    onFrame: (samples, level) => this.onFrame(samples, level),
    onEnded: () => {
      if (this.capturing && !this.ending) this.micFailed('no-device', 'The microphone was disconnected. Your audio so far is kept; reconnect a microphone and press Start recording to continue.');
    },
  });
  private capturing = false;
  private paused = false;
  /** Dates captured audio and finds sound the microphone never delivered. */
  private readonly clock = new CaptureClock();
  private readonly starts = new CaptureStarts();
  private ending = false;
  private eofSent = false;
  private cancelled = false;
  private stopped = false;
  private endWaiters: Array<() => void> = [];
  /** PAUSE goes out only after the audio buffered before it: the server refuses audio while paused. */
  private pauseSent = false;
  /** The current connection's START_TIME went out (just before its first audio). */
  private startTimeSent = false;

  constructor(private readonly opts: RecorderOptions) {
    const kept = opts.kept ?? null;
    this.buffer = kept ? FrameBuffer.restore(kept.kept, { probe: true }) : new FrameBuffer({ probe: true });
    this.writer = opts.persist === false ? null : new CaptureWriter(opts.sessionId, kept?.meta.captureId ?? captureId(), kept?.meta);
    this.link = new AmbientLink({
      url: opts.wsUrl ?? defaultWsUrl(),
      sessionId: opts.sessionId,
      getToken: opts.getToken,
      checkSession: opts.checkSession,
      onOpen: () => this.onOpen(),
      onMessage: (data) => this.onServer(data),
      onClosed: (code) => this.onClosed(code),
      onFatal: (kind, message) => this.fail(kind, message),
      onStatus: (s) => this.onLinkStatus(s),
      awaitingAck: () => this.buffer.isConnected && !this.buffer.allAcked && this.buffer.sentInConnectionMs > 0,
    });
    if (kept) {
      this.ending = kept.meta.ending;
      this.store.patch({
        restored: { ms: this.buffer.unackedMs, untilMs: this.buffer.totalMs, droppedMs: 0 },
        phase: this.ending ? 'finishing' : 'idle',
        endQueued: this.ending,
      });
      this.figures();
    }
  }

  private get store() {
    return this.opts.store.getState();
  }

  private onLinkStatus(s: LinkStatus) {
    this.store.patch({ connection: s.state, downSinceMs: s.downSince, nextAttemptAt: s.nextAttemptAt, reconnects: s.reconnects });
  }

  private figures = () => this.store.patch({ elapsedMs: this.buffer.totalMs, timelineMs: this.buffer.timelineMs, unackedMs: this.buffer.unackedMs, ackedMs: this.buffer.ackedMs });

  /** Sends the audio an earlier page kept (and EOF, if its End was queued), without the microphone. */
  resend(): void {
    if (!this.stopped && (this.ending || !this.buffer.allAcked)) this.link.start();
  }

  /** A request to the server just succeeded: a waiting reconnect starts now. */
  retryNow(): void {
    this.link.retryNow();
  }

  /** Opens the microphone (and the connection). Microphone errors are reported in the store, not thrown. */
  async start(deviceId?: string): Promise<void> {
    if (this.stopped || this.ending || this.capturing) return;
    this.store.patch({ phase: 'starting', error: null });
    const started = await this.mic.start(deviceId);
    if (started.ok || started.opened) {
      // Labels are only readable once permission is granted.
      listInputDevices()
        .then((devices) => this.store.patch({ devices }))
        .catch(() => undefined);
    }
    if (!started.ok) {
      this.mic.stop();
      this.store.patch({ phase: 'error', error: { kind: started.kind, message: started.message } });
      return;
    }
    this.capturing = true;
    this.newPart(this.starts.started(!!this.opts.kept || !!this.opts.continuesVisit)); // after a stop, a part of its own (FrameBuffer.partStarts)
    this.paused = false;
    this.store.patch({ phase: 'recording' });
    this.link.start();
    this.pump();
  }

  /** Audio from the next sample on is a recording part of its own, dated by the capture clock from a fresh run. */
  private newPart(reason?: PartStartReason) {
    this.clock.restart();
    this.buffer.markPartStart(reason);
    void this.writer?.progress(this.buffer.position);
  }

  private onFrame(samples: Int16Array, level: number) {
    this.store.patch({ level });
    // Paused audio is not part of the visit: dropped here, before it is buffered.
    if (this.paused || this.cancelled || !this.capturing) return;
    const { at, lost } = this.clock.frame(samples.length, performance.now(), Date.now());
    if (lost !== null) {
      this.newPart('CAPTURE_STALLED'); // sound never delivered is a stretch no recording holds
      this.store.patch({ captureLostMs: lost });
    }
    const start = this.buffer.totalSamples;
    this.buffer.push(samples, at);
    if (this.writer) {
      this.writer.append({ start, samples, at });
      const notKept = this.writer.failed ? 'failed' : this.writer.overLimit ? 'over-limit' : null;
      if (notKept !== this.store.notKept) this.store.patch({ notKept });
    }
    this.pump();
  }

  private onOpen() {
    this.buffer.connectionOpened();
    // START_TIME waits for the first audio (pump), or a connection opened before any would be dated by its opening.
    if (this.cancelled) this.link.send(eventFrame('CANCEL'));
    this.pauseSent = this.startTimeSent = false;
    this.pump();
  }

  private onServer(data: unknown) {
    const msg = typeof data === 'string' ? parseServerFrame(data) : null;
    if (!msg) return;
    switch (msg.type) {
      case 'ACK':
        if (this.buffer.ack(msg.received_ms, msg.session_ms)) this.link.acknowledged();
        void this.writer?.progress(this.buffer.position);
        // A probe's ACK releases the backlog.
        this.pump();
        this.checkEnded();
        this.idleIfDone();
        break;
      case 'TRANSCRIPT':
        this.store.transcript({ id: msg.transcript_id ?? `t-${msg.start_offset_ms}`, text: msg.text, startMs: msg.start_offset_ms, endMs: msg.end_offset_ms, speaker: msg.speaker, isFinal: msg.is_final });
        break;
      case 'SPEAKERS':
        this.store.speakers(msg.labels);
        break;
      case 'STATUS':
        if (ENDED.includes(msg.status) && (this.eofSent || this.cancelled)) this.finish();
        break;
      case 'ERROR':
        this.store.patch({ error: { kind: 'server', message: msg.message } });
        break;
    }
  }

  /** Whether the recorder is done with this connection (true: no reconnect). */
  private onClosed(code: number): boolean {
    this.buffer.connectionClosed();
    this.store.connectionDropped();
    if (this.stopped) return true;
    // After EOF the server holds the audio once it ACKed it all or closed normally; a 4409 on the way back
    // means it ended the visit. Otherwise the audio and the EOF go out again on the next connection.
    const done =
      this.cancelled || (this.eofSent && (this.buffer.allAcked || code === CLOSE.NORMAL)) || (this.ending && code === CLOSE.CONFLICT && this.buffer.allAcked);
    if (done) {
      this.finish();
      return true;
    }
    this.eofSent = false;
    this.figures();
    return false;
  }

  /** Nothing to send and nothing being captured: the connection is given back (it counts under the stream caps). */
  private idleIfDone() {
    if (!this.capturing && !this.ending && !this.cancelled && this.buffer.allAcked && this.link.isRunning) this.link.stop();
  }

  /**
   * Sends whatever the current connection has not carried yet, then EOF when ending. A backlog (after a drop,
   * a restart or a reload) goes out at once, after the probe's ACK: it is a catch-up, not a live stream, and
   * the server lets a session's audio run ahead of a connection's clock up to the time since the session was
   * created (docs/streaming.md, "Limits").
   */
  private pump() {
    const ws = this.link.socket;
    if (ws && this.buffer.isConnected && !this.cancelled) {
      if (this.buffer.partComplete) {
        // All of this connection's part is stored: the next part's audio goes on a connection of its own (partStarts).
        this.buffer.connectionClosed();
        return this.link.renew();
      }
      const frames = this.buffer.takeUnsent();
      if (frames.length > 0 && !this.startTimeSent) {
        this.link.send(startTimeFrame(this.buffer.connectionStartTime() ?? Date.now(), this.buffer.connectionStartReason));
        this.startTimeSent = true;
      }
      for (const f of frames) ws.send(f);
      if (this.paused && !this.pauseSent && this.buffer.allSent) {
        ws.send(JSON.stringify(eventFrame('PAUSE')));
        this.pauseSent = true;
      }
      if (this.ending && !this.eofSent && this.buffer.allSent && !this.buffer.awaitingProbeAck) {
        ws.send(JSON.stringify(EOF_FRAME));
        this.eofSent = true;
      }
    }
    this.figures();
  }

  pause() {
    if (this.store.phase !== 'recording') return;
    this.paused = true;
    this.clock.pause(Date.now());
    this.store.patch({ phase: 'paused' });
    this.pump();
  }

  resume() {
    if (this.store.phase !== 'paused') return;
    this.paused = false;
    // A paused stretch is not recorded: one the server would list (1 s or more) starts a part dated when said.
    if (this.clock.resume(Date.now())) this.newPart('PAUSED');
    if (this.pauseSent) this.link.send(eventFrame('RESUME'));
    this.pauseSent = false;
    this.store.patch({ phase: 'recording' });
  }

  /**
   * Ends the visit: capture stops at once (the worklet's last partial frame is flushed), and every buffered
   * frame is sent, then EOF, on this connection or the next one however long the network takes; a reload
   * meanwhile continues it (the End is kept with the audio). Resolves once the server has the audio.
   */
  async end(): Promise<void> {
    if (this.ending || this.stopped) return;
    this.store.patch({ phase: 'finishing', endQueued: true });
    // Audio from a paused stretch is not part of the visit, so only a live recorder is flushed.
    if (this.capturing && !this.paused) await this.mic.flush();
    this.ending = true;
    this.capturing = false;
    this.mic.stop();
    this.store.patch({ level: 0 });
    void this.writer?.setEnding();
    this.paused = false;
    if (this.pauseSent) this.link.send(eventFrame('RESUME'));
    this.pauseSent = false;
    const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
    this.link.start();
    this.pump();
    await done;
  }

  private checkEnded() {
    if (this.eofSent && this.buffer.allAcked) this.finish();
  }

  /** Abandons the visit: the server marks it aborted and keeps nothing for a note. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    this.capturing = false;
    this.mic.stop();
    this.store.patch({ phase: 'finishing' });
    const done = new Promise<void>((resolve) => this.endWaiters.push(resolve));
    // Offline, the CANCEL goes out as soon as a connection opens (see onOpen), so it is given longer.
    const open = !!this.link.socket;
    if (open) this.link.send(eventFrame('CANCEL'));
    else this.link.start();
    await Promise.race([done, new Promise((r) => setTimeout(r, open ? 3_000 : 15_000))]);
    this.store.patch({ phase: 'cancelled' });
    void this.writer?.clear();
    this.shutdown();
  }

  /** The microphone failed: capture stops, but audio not yet on the server is still sent. */
  private micFailed(kind: RecorderErrorKind, message: string) {
    this.capturing = false;
    this.mic.stop();
    this.store.patch({ phase: 'error', error: { kind, message } });
    this.idleIfDone();
  }

  /** A refusal no retry fixes: everything stops; unsent audio stays kept on this device (Discard removes it). */
  private fail(kind: RecorderErrorKind, message: string) {
    this.store.patch({ phase: 'error', error: { kind, message } });
    this.shutdown();
  }

  private finish() {
    if (this.stopped) return;
    this.store.patch({ phase: this.cancelled ? 'cancelled' : 'finished', connection: 'idle', downSinceMs: null, endQueued: false });
    this.figures();
    // The server ended the visit after our EOF (or CANCEL): it takes no more audio, so nothing is kept.
    void this.writer?.clear();
    this.shutdown();
  }

  /** Stops everything; audio never ACKed stays in IndexedDB for the next page that opens this visit. */
  shutdown() {
    this.stopped = true;
    this.capturing = false;
    this.mic.stop();
    this.link.stop();
    for (const w of this.endWaiters.splice(0)) w();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}
