/**
 * Client-side audio buffer for /ws/ambient. Every captured frame stays here until the server ACKs it
 * (`received_ms`: audio durably stored up to that point of the current connection, which is one
 * recording). When the socket drops, the next connection is a new recording that starts at the first
 * un-ACKed sample, and everything from there is sent again, so no audio the clinician recorded is lost.
 *
 * Pure bookkeeping: no timers and no sockets, so the resend rules are unit-tested directly.
 */
import { SAMPLE_RATE_HZ, type PartStartReason } from '../contracts/stream-protocol';

export interface FrameBufferOptions {
  /** Samples per second of the PCM16 mono audio (16 kHz on /ws/ambient). */
  sampleRate?: number;
  /**
   * Start each connection with a 1 ms probe and wait for its ACK (see `probe` below). Only useful with a
   * server whose ACKs carry session_ms, as /ws/ambient's do.
   */
  probe?: boolean;
}

export interface Chunk {
  /** Position of the first sample on the recording timeline (all audio pushed so far). */
  start: number;
  samples: Int16Array;
  /** Wall-clock time (ms since epoch) the first sample was captured. */
  at: number;
}

export class FrameBuffer {
  readonly sampleRate: number;
  private chunks: Chunk[] = [];
  /** Samples captured in total. */
  private total = 0;
  /** Samples the server has durably stored (over all connections). */
  private acked = 0;
  /** Samples handed to the current connection. */
  private sent = 0;
  /** Where the current connection (recording) began on the timeline; its ACKs count from here. */
  private connectionBase = 0;
  private connected = false;
  /** Session-timeline ms at which client sample 0 sits; learned from the `session_ms` of an ACK. */
  private sessionBaseMs: number | null = null;
  /**
   * After a drop the old recording may hold more than its last ACK said (ACKs lost in flight). Each
   * connection therefore first sends a 1 ms probe; its ACK's session_ms tells where the server's audio
   * really ends (on the first connection: where this page's audio begins on the session timeline), and
   * the resend continues from there instead of repeating it.
   */
  private probe: 'none' | 'pending' | 'sent' = 'none';
  /**
   * Timeline positions where capture started again after a stop ("Continue recording" after a reload, Start
   * after a lost microphone): the wall clock jumps there. A recording has one START_TIME and runs on without a
   * break from it, so audio from both sides of such a point on one connection would hide the stretch nothing
   * was recorded (the server finds recording gaps from each recording's START_TIME and length). A connection
   * therefore carries audio only up to the next part start; once the server has stored all of it the recorder
   * closes that connection, and the next one begins at the part start, dated by that sample's own wall clock.
   * A marker rather than a split buffer: sending, ACKs and resends stay one timeline, so the outage rules above
   * hold unchanged across it.
   */
  private partStarts: number[] = [];
  /**
   * Why capture started again at a part start (sent as the START_TIME `reason` of the connection that begins
   * there, which the server gives the recording gap before it as its cause); at sample 0 when this page's first
   * part itself follows a stop (a page that continues a visit). Kept until the server has audio past it: a
   * connection that begins at the part start again (after a drop, or a reload) sends the reason again.
   */
  private partReasons: PartReason[] = [];

  private readonly useProbe: boolean;

  constructor(opts: FrameBufferOptions = {}) {
    this.sampleRate = opts.sampleRate ?? SAMPLE_RATE_HZ;
    this.useProbe = opts.probe ?? false;
  }

  /**
   * A buffer that continues a capture kept on the device (after a reload or a crash): the same timeline, the
   * same ACK point and session base, so the first connection resends from the last ACK and the probe finds
   * any audio the server stored whose ACK never arrived. New audio is appended after the kept audio.
   */
  static restore(kept: KeptAudio, opts: FrameBufferOptions = {}): FrameBuffer {
    const b = new FrameBuffer(opts);
    const usable = contiguousFrom(kept.chunks, kept.ackedSamples);
    b.chunks = usable.chunks;
    b.total = usable.total;
    b.acked = usable.acked;
    b.sent = usable.acked;
    b.connectionBase = usable.acked;
    b.sessionBaseMs = kept.sessionBaseMs;
    b.partStarts = (kept.partStarts ?? []).filter((p) => p > usable.acked && p <= usable.total);
    b.partReasons = (kept.partReasons ?? []).filter((r) => r.sample >= usable.acked && r.sample <= usable.total);
    return b;
  }

  /** What must be kept to continue this capture elsewhere (with the unACKed chunks). */
  get position(): { ackedSamples: number; totalSamples: number; sessionBaseMs: number | null; partStarts?: number[]; partReasons?: PartReason[] } {
    const position = { ackedSamples: this.acked, totalSamples: this.total, sessionBaseMs: this.sessionBaseMs };
    // Only a timeline with a restart has any (restore drops those already on the server).
    const withStarts = this.partStarts.length > 0 ? { ...position, partStarts: [...this.partStarts] } : position;
    return this.partReasons.length > 0 ? { ...withStarts, partReasons: this.partReasons.map((r) => ({ ...r })) } : withStarts;
  }

  /**
   * Capture starts again after a stop, for `reason`: the audio pushed from now on is a recording part of its
   * own (see `partStarts`). No part start before the first sample (a timeline's first connection starts there
   * anyway), but its reason is kept. Two stops with no audio between are one part start, with the first reason.
   */
  markPartStart(reason?: PartStartReason): void {
    if (reason && !this.partReasons.some((r) => r.sample === this.total)) this.partReasons.push({ sample: this.total, reason });
    if (this.total === 0 || this.partStarts.at(-1) === this.total) return;
    this.partStarts.push(this.total);
  }

  /**
   * Why the current connection's recording begins after a stretch nothing recorded (its START_TIME `reason`):
   * the reason of the part start it begins at, or null for a connection that resends from inside a part.
   */
  get connectionStartReason(): PartStartReason | null {
    return this.partReasons.find((r) => r.sample === this.connectionBase)?.reason ?? null;
  }

  /** Where the current connection's part ends: the first part start after the connection's own start. */
  private get partEnd(): number {
    return this.partStarts.find((p) => p > this.connectionBase) ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The current connection has carried its whole part and the server has stored it, and audio of the next
   * part is waiting: the recorder closes this connection and opens the next. Only once the first sample of the
   * next part exists, so the next connection's START_TIME is that sample's wall clock.
   */
  get partComplete(): boolean {
    const end = this.partEnd;
    return this.connected && end < this.total && this.acked >= end;
  }

  /** Position of the next sample pushed on this capture's timeline. */
  get totalSamples(): number {
    return this.total;
  }

  /** Appends captured audio; `at` is when its first sample was captured. */
  push(samples: Int16Array, at: number = Date.now()): void {
    if (samples.length === 0) return;
    this.chunks.push({ start: this.total, samples, at });
    this.total += samples.length;
  }

  /**
   * A new connection opened: it is a new recording, so it starts at the first sample not yet ACKed.
   * Anything sent on the old connection but not ACKed will be sent again.
   */
  connectionOpened(): void {
    this.connected = true;
    this.connectionBase = this.acked;
    this.sent = this.acked;
    this.probe = this.useProbe ? 'pending' : 'none';
    // Parts already on the server need no connection of their own any more.
    this.partStarts = this.partStarts.filter((p) => p > this.connectionBase);
  }

  private get probeSamples(): number {
    return Math.round(this.sampleRate / 1000);
  }

  connectionClosed(): void {
    this.connected = false;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Audio to send now on the current connection, in order, and marks it sent: everything unsent, or at
   * most `limitSamples` of it, never past the end of the connection's part. A chunk the server has partly
   * ACKed is cut at the ACK so the new recording does not repeat stored audio.
   */
  takeUnsent(limitSamples = Number.POSITIVE_INFINITY): Int16Array[] {
    if (!this.connected || this.probe === 'sent') return [];
    const partStop = Math.min(this.total, this.partEnd);
    if (this.probe === 'pending') {
      // The probe waits for 1 ms of audio, unless this part is complete with less left (after a partial last
      // frame): then that rest is the probe.
      if (partStop - this.sent < this.probeSamples && partStop === this.total) return [];
      limitSamples = this.probeSamples;
      this.probe = 'sent';
    }
    const out: Int16Array[] = [];
    const stop = Math.min(partStop, this.sent + Math.max(0, Math.floor(limitSamples)));
    for (const c of this.chunks) {
      if (this.sent >= stop) break;
      const end = c.start + c.samples.length;
      if (end <= this.sent) continue;
      const from = Math.max(0, this.sent - c.start);
      const to = Math.min(c.samples.length, stop - c.start);
      out.push(from === 0 && to === c.samples.length ? c.samples : c.samples.subarray(from, to));
      this.sent = c.start + to;
    }
    return out;
  }

  /** Audio sent on the current connection so far (ms). */
  get sentInConnectionMs(): number {
    return ((this.sent - this.connectionBase) * 1000) / this.sampleRate;
  }

  /**
   * The server's ACK for the current connection: `receivedMs` of this recording are durable, and (when
   * the server says so) `sessionMs` is the same point on the session's timeline. Returns false (and
   * changes nothing) for an ACK that claims more audio than this connection was sent: a confused or stale
   * message must not make the buffer drop audio it still needs.
   */
  ack(receivedMs: number, sessionMs?: number): boolean {
    if (!this.connected || !Number.isFinite(receivedMs) || receivedMs < 0) return false;
    const perMs = this.sampleRate / 1000;
    const haveSession = sessionMs !== undefined && Number.isFinite(sessionMs);
    if (this.probe === 'sent' && haveSession && this.sessionBaseMs !== null) {
      // Client samples the server held before this recording began.
      const held = Math.round((sessionMs! - receivedMs - this.sessionBaseMs) * perMs);
      // (Never past this connection's part: earlier connections sent nothing beyond it.)
      if (held >= this.connectionBase + this.probeSamples && held <= Math.min(this.total, this.partEnd)) {
        // This recording is the probe, then the audio from `held` on. The probe repeated stored audio, so
        // every later sample sits one probe further along the session timeline than before.
        this.connectionBase = held - this.probeSamples;
        this.sent = Math.max(this.sent, held);
        this.sessionBaseMs = sessionMs! - held / perMs;
      }
    } else if (haveSession && this.sessionBaseMs === null) {
      this.sessionBaseMs = sessionMs! - receivedMs - this.connectionBase / perMs;
    }
    this.probe = 'none';
    let upTo = this.connectionBase + Math.floor(receivedMs * perMs);
    if (upTo > this.sent) return false;
    // ACKs are whole ms, so a part that is not (its last frame partial) would never be ACKed to its end, and
    // its connection never given up for the next part's: once all of it was sent and all but < 1 ms stored,
    // that rest (which no ACK can name) counts as stored.
    const end = this.partEnd;
    if (end < Number.POSITIVE_INFINITY && this.sent === end && end - upTo < this.probeSamples) upTo = end;
    if (upTo <= this.acked) return true;
    this.acked = upTo;
    // A connection can no longer begin before the ACK point.
    this.partReasons = this.partReasons.filter((r) => r.sample >= this.acked);
    while (this.chunks.length > 0) {
      const c = this.chunks[0]!;
      if (c.start + c.samples.length > this.acked) break;
      this.chunks.shift();
    }
    return true;
  }

  /**
   * Wall-clock time of the first sample the current connection carries (its START_TIME), or undefined
   * when nothing is buffered yet.
   */
  connectionStartTime(): number | undefined {
    const c = this.chunks.find((x) => x.start + x.samples.length > this.connectionBase);
    if (!c) return undefined;
    return c.at + ((Math.max(this.connectionBase, c.start) - c.start) * 1000) / this.sampleRate;
  }

  /** A connection's probe is out and its ACK not yet in. */
  get awaitingProbeAck(): boolean {
    return this.probe === 'sent';
  }

  /** Everything captured has been sent on the current connection. */
  get allSent(): boolean {
    return this.connected && this.sent === this.total;
  }

  /** Everything captured is durably stored. */
  get allAcked(): boolean {
    return this.acked === this.total;
  }

  get totalMs(): number {
    return (this.total * 1000) / this.sampleRate;
  }

  /**
   * Where the captured audio ends on the session's timeline (all of the visit's recordings, this page's and any
   * earlier page's), once an ACK has placed this page's audio on it; null before.
   */
  get timelineMs(): number | null {
    return this.sessionBaseMs === null ? null : this.sessionBaseMs + this.totalMs;
  }

  get ackedMs(): number {
    return (this.acked * 1000) / this.sampleRate;
  }

  /** Captured audio the server has not confirmed yet. */
  get unackedMs(): number {
    return ((this.total - this.acked) * 1000) / this.sampleRate;
  }

  /** Samples held in memory (for tests and a memory guard). */
  get bufferedSamples(): number {
    return this.chunks.reduce((n, c) => n + c.samples.length, 0) - Math.max(0, this.acked - (this.chunks[0]?.start ?? this.acked));
  }
}

/** Why capture started again at timeline position `sample` (FrameBuffer's `partReasons`). */
export interface PartReason {
  sample: number;
  reason: PartStartReason;
}

/** Audio kept on the device for a capture: its chunks, and how far the server had acknowledged it. */
export interface KeptAudio {
  ackedSamples: number;
  sessionBaseMs: number | null;
  chunks: Chunk[];
  /** Where capture had started again after a stop (FrameBuffer's `partStarts`); absent in older kept captures. */
  partStarts?: number[];
  /** Why capture started again at each part start (FrameBuffer's `partReasons`); absent in older kept captures. */
  partReasons?: PartReason[];
}

/**
 * The kept chunks that can be resent: from the ACK point on, in order, up to the first gap (a chunk that was
 * never written because the device's limit was reached, or was lost in a crash). Audio after a gap cannot be
 * placed on the timeline, so it is dropped and counted. Chunks wholly before the ACK are already stored.
 */
export function contiguousFrom(chunks: Chunk[], ackedSamples: number): { chunks: Chunk[]; acked: number; total: number; droppedSamples: number } {
  const sorted = [...chunks].sort((a, b) => a.start - b.start).filter((c) => c.start + c.samples.length > ackedSamples);
  // A first chunk beginning after the ACK point: the meta lagged behind pruning, so what lies before was ACKed.
  let acked = ackedSamples;
  if (sorted.length > 0 && sorted[0]!.start > acked) acked = sorted[0]!.start;
  const out: Chunk[] = [];
  let end = acked;
  let dropped = 0;
  for (const c of sorted) {
    const cEnd = c.start + c.samples.length;
    if (dropped > 0 || c.start > end) {
      dropped += c.samples.length;
      continue;
    }
    if (cEnd <= end) continue; // a duplicate of audio already taken
    out.push(c);
    end = cEnd;
  }
  return { chunks: out, acked, total: end, droppedSamples: dropped };
}
