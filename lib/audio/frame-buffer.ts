/**
 * Client-side audio buffer for /ws/ambient. Every captured frame stays here until the server ACKs it
 * (`received_ms`: audio durably stored up to that point of the current connection, which is one
 * recording). When the socket drops, the next connection is a new recording that starts at the first
 * un-ACKed sample, and everything from there is sent again, so no audio the clinician recorded is lost.
 *
 * Pure bookkeeping: no timers and no sockets, so the resend rules are unit-tested directly.
 */

export interface FrameBufferOptions {
  /** Samples per second of the PCM16 mono audio (16 kHz on /ws/ambient). */
  sampleRate?: number;
}

interface Chunk {
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

  constructor(opts: FrameBufferOptions = {}) {
    this.sampleRate = opts.sampleRate ?? 16_000;
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
  }

  connectionClosed(): void {
    this.connected = false;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /**
   * Audio to send now on the current connection, in order, and marks it sent: everything unsent, or at
   * most `limitSamples` of it. A chunk the server has partly ACKed is cut at the ACK so the new
   * recording does not repeat stored audio.
   */
  takeUnsent(limitSamples = Number.POSITIVE_INFINITY): Int16Array[] {
    if (!this.connected) return [];
    const out: Int16Array[] = [];
    const stop = Math.min(this.total, this.sent + Math.max(0, Math.floor(limitSamples)));
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

  /** Audio sent on the current connection so far (ms), for pacing a resend. */
  get sentInConnectionMs(): number {
    return ((this.sent - this.connectionBase) * 1000) / this.sampleRate;
  }

  /**
   * The server's ACK for the current connection. Returns false (and changes nothing) for an ACK that
   * claims more audio than this connection was sent: a confused or stale message must not make the
   * buffer drop audio it still needs.
   */
  ack(receivedMs: number): boolean {
    if (!this.connected || !Number.isFinite(receivedMs) || receivedMs < 0) return false;
    const upTo = this.connectionBase + Math.floor((receivedMs * this.sampleRate) / 1000);
    if (upTo > this.sent) return false;
    if (upTo <= this.acked) return true;
    this.acked = upTo;
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
