/**
 * Energy-based voice-activity segmentation with an adaptive noise floor: SPEECH_VAD=energy, and the OpenAI
 * engine's chunker. It needs no ONNX runtime and costs microseconds per frame, but bench:vad measured it
 * below Silero (silero-segmenter.ts, the embedded default), above all in noise, where it splits turns.
 */
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

export const VAD_RATE = SAMPLE_RATE_HZ;
const FRAME = 160; // 10 ms

export interface VadOptions {
  /** Silence that closes a segment. */
  pauseMs?: number;
  /** Audio kept before the detected onset so that soft word starts are not clipped. */
  prerollMs?: number;
  /** Segments are cut here even without a pause, bounding latency and decoder memory. */
  maxSegmentMs?: number;
  /** Onset threshold above the tracked noise floor. */
  thresholdDb?: number;
  /** Absolute floor for the threshold so that digital silence does not make any noise look like speech. */
  minThresholdDbfs?: number;
  /** Segments with less voiced audio than this are dropped (clicks, coughs). */
  minSpeechMs?: number;
}

export type VadEvent =
  | { type: 'start'; startSample: number }
  | { type: 'audio'; samples: Int16Array }
  | { type: 'end'; endSample: number; voicedMs: number };

/** Cuts a stream into speech segments: the energy VAD here, Silero in silero-segmenter.ts. */
export interface Segmenter {
  push(samples: Int16Array): VadEvent[];
  /** Ends any open segment (end of audio). */
  flush(): VadEvent[];
  /** Gives back what the segmenter holds when its audio is abandoned rather than flushed. */
  release(): void;
  readonly speaking: boolean;
  readonly minSpeechMs: number;
}

export class VadSegmenter implements Segmenter {
  private readonly pauseFrames: number;
  private readonly prerollFrames: number;
  private readonly maxFrames: number;
  private readonly thresholdDb: number;
  private readonly minThr: number;
  readonly minSpeechMs: number;
  private pending = new Int16Array(0);
  private frameIndex = 0;
  private noiseDb = -60;
  private preroll: Int16Array[] = [];
  private inSpeech = false;
  private silentRun = 0;
  private segFrames = 0;
  private voicedFrames = 0;
  private onsetRun = 0;

  constructor(opts: VadOptions = {}) {
    this.pauseFrames = Math.round((opts.pauseMs ?? 600) / 10);
    this.prerollFrames = Math.round((opts.prerollMs ?? 250) / 10);
    this.maxFrames = Math.round((opts.maxSegmentMs ?? 20000) / 10);
    this.thresholdDb = opts.thresholdDb ?? 10;
    this.minThr = opts.minThresholdDbfs ?? -52;
    this.minSpeechMs = opts.minSpeechMs ?? 150;
  }

  get speaking(): boolean {
    return this.inSpeech;
  }

  push(samples: Int16Array): VadEvent[] {
    const events: VadEvent[] = [];
    let buf = samples;
    if (this.pending.length) {
      buf = new Int16Array(this.pending.length + samples.length);
      buf.set(this.pending);
      buf.set(samples, this.pending.length);
    }
    let off = 0;
    for (; off + FRAME <= buf.length; off += FRAME) this.frame(buf.slice(off, off + FRAME), events);
    this.pending = buf.slice(off);
    return events;
  }

  /** Holds nothing outside the JS heap. */
  release(): void {}

  /** Ends any open segment (end of audio). */
  flush(): VadEvent[] {
    const events: VadEvent[] = [];
    if (this.pending.length) {
      const last = new Int16Array(FRAME);
      last.set(this.pending);
      this.pending = new Int16Array(0);
      this.frame(last, events);
    }
    if (this.inSpeech) this.close(events);
    return events;
  }

  private frame(f: Int16Array, events: VadEvent[]): void {
    let e = 0;
    for (let i = 0; i < f.length; i++) e += f[i]! * f[i]!;
    const db = 10 * Math.log10(e / f.length / (32768 * 32768) + 1e-10);
    const thr = Math.max(this.noiseDb + this.thresholdDb, this.minThr);
    const voiced = db > thr;
    // The floor follows quiet frames quickly and loud ones very slowly, so long speech does not raise it.
    if (db < this.noiseDb) this.noiseDb = 0.8 * this.noiseDb + 0.2 * db;
    else this.noiseDb += voiced ? 0.002 * (db - this.noiseDb) : 0.05 * (db - this.noiseDb);
    this.noiseDb = Math.max(this.noiseDb, -90);
    const frameStart = this.frameIndex * FRAME;
    this.frameIndex++;

    if (!this.inSpeech) {
      this.preroll.push(f);
      if (this.preroll.length > this.prerollFrames) this.preroll.shift();
      this.onsetRun = voiced ? this.onsetRun + 1 : 0;
      // Three voiced frames in a row (30 ms) start a segment; single clicks do not.
      if (this.onsetRun >= 3) {
        this.inSpeech = true;
        this.silentRun = 0;
        this.voicedFrames = this.onsetRun;
        this.segFrames = this.preroll.length;
        const start = frameStart + FRAME - this.preroll.length * FRAME;
        events.push({ type: 'start', startSample: start });
        events.push({ type: 'audio', samples: concat(this.preroll) });
        this.preroll = [];
      }
      return;
    }
    events.push({ type: 'audio', samples: f });
    this.segFrames++;
    if (voiced) {
      this.voicedFrames++;
      this.silentRun = 0;
    } else this.silentRun++;
    if (this.silentRun >= this.pauseFrames || this.segFrames >= this.maxFrames) this.close(events);
  }

  private close(events: VadEvent[]): void {
    events.push({ type: 'end', endSample: this.frameIndex * FRAME, voicedMs: this.voicedFrames * 10 });
    this.inSpeech = false;
    this.onsetRun = 0;
    this.silentRun = 0;
    this.segFrames = 0;
    this.voicedFrames = 0;
  }
}

function concat(parts: Int16Array[]): Int16Array {
  const n = parts.reduce((a, p) => a + p.length, 0);
  const out = new Int16Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
