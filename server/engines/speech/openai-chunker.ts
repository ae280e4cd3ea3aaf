import type { SpeechSegment, SpeechStream, SpeechStreamOptions } from './types.js';
import { SampleAligner } from './audio.js';
import { VadSegmenter, type VadOptions } from './vad.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/** Transcribes one chunk of PCM16 mono 16 kHz starting offsetMs into the stream. */
export type TranscribeChunk = (pcm: Buffer, offsetMs: number) => Promise<SpeechSegment[]>;

/**
 * A live stream over a non-streaming API: audio is cut into chunks at pauses, each chunk is sent as soon
 * as it completes (at most `concurrency` at once), and results are emitted in audio order.
 */
export class ChunkedStream implements SpeechStream {
  private readonly vad: VadSegmenter;
  private current: Int16Array[] = [];
  private currentStart = 0;
  /** Results are emitted in audio order even when a later chunk's request finishes first. */
  private chain: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private closed = false;
  private readonly aligner = new SampleAligner();

  constructor(
    private readonly transcribeChunk: TranscribeChunk,
    private readonly limits: { concurrency?: number; vad?: VadOptions },
    private readonly options: SpeechStreamOptions,
  ) {
    // Whisper-style models decode 30 s windows; longer chunks would be cut by the server.
    this.vad = new VadSegmenter({ pauseMs: 700, maxSegmentMs: 28_000, ...limits.vad });
  }

  write(pcm: Buffer): void {
    if (this.closed) throw new Error('speech stream is closed');
    this.route(this.vad.push(this.aligner.push(pcm)));
  }

  private route(events: ReturnType<VadSegmenter['push']>): void {
    for (const e of events) {
      if (e.type === 'start') {
        this.current = [];
        this.currentStart = e.startSample;
      } else if (e.type === 'audio') this.current.push(e.samples);
      else {
        const chunk = this.current;
        this.current = [];
        if (e.voicedMs >= this.vad.minSpeechMs) this.submit(chunk, (this.currentStart * 1000) / SAMPLE_RATE_HZ);
      }
    }
  }

  private submit(chunk: Int16Array[], offsetMs: number): void {
    const n = chunk.reduce((a, c) => a + c.length, 0);
    const pcm = Buffer.alloc(n * 2);
    let o = 0;
    for (const c of chunk) {
      pcm.set(new Uint8Array(c.buffer, c.byteOffset, c.byteLength), o);
      o += c.byteLength;
    }
    const result = this.slot().then(() =>
      this.transcribeChunk(pcm, offsetMs).finally(() => {
        this.inFlight--;
        this.waiters.shift()?.();
      }),
    );
    result.catch(() => {});
    this.chain = this.chain.then(async () => {
      try {
        const segs = await result;
        if (!this.closed) for (const s of segs) this.options.onSegment(s);
      } catch (e) {
        if (!this.closed) this.options.onError?.(e as Error);
      }
    });
  }

  private async slot(): Promise<void> {
    const limit = this.limits.concurrency ?? 2;
    while (this.inFlight >= limit) await new Promise<void>((r) => this.waiters.push(r));
    this.inFlight++;
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.route(this.vad.flush());
    await this.chain;
    this.closed = true;
  }

  close(): void {
    this.closed = true;
  }
}
