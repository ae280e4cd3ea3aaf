import crypto from 'node:crypto';
import os from 'node:os';
import { SampleAligner } from './audio.js';
import { AudioBatcher } from './audio-batch.js';
import { readInterpolation, resolveModel, type EmbeddedLm } from './embedded-models.js';
import { type DecoderBias, type DecoderModel, type RawWord } from './pocketsphinx/ffi.js';
import { DecoderPool } from './pocketsphinx/pool.js';
import type { FromWorker } from './pocketsphinx/worker.js';
import type { DecodedPrefix, SpeechBias, SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions, WordTiming } from './types.js';
import { segmenterFactory, type SegmenterFactory } from './silero-segmenter.js';
import { timeStageCpu } from './stage-cpu.js';
import type { Segmenter, VadEvent, VadOptions } from './vad.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/**
 * SPEECH_VAD's default for the embedded engine: Silero, which bench:vad measured better (frame F1 97.7 vs
 * 91.4 %, 4 vs 102 split turns at 10 dB SNR) and bench:speech no worse on any voice set.
 */
export const DEFAULT_VAD = 'silero' as const;

export { CLINICAL_MODEL_DIR, clinicalModel, leanModel, readInterpolation, resolveModel, type Interpolation } from './embedded-models.js';

export interface EmbeddedOptions {
  /** Decoder threads; defaults to the number of cores. */
  poolSize?: number;
  /**
   * `lean` (one model merged offline by `npm run speech:build-lm`, with a dictionary of its own vocabulary),
   * `clinical` (the clinical model interpolated with Debian's
   * en-us model at decode time, CMUdict as dictionary) or `stock` (Debian's en-us model alone). Without it,
   * model/default.json decides (embedded-models.ts defaultLm()).
   */
  lm?: EmbeddedLm;
  /** Overrides the model entirely (benchmarks, experiments). */
  model?: DecoderModel;
  vad?: VadOptions;
  /**
   * Makes each stream's segmenter (SPEECH_VAD). One factory serves the live stream and the final pass, so
   * both cut the same audio into the same segments and a live result can stand for the final one.
   */
  segmenter?: SegmenterFactory;
  /** Weight of a session's own vocabulary (0 turns biasing off); defaults to model/interpolation.json. */
  biasWeight?: number;
}

/** Words that carry no context: a session's bias keeps the terms that tell its visit apart. */
const COMMON = new Set(
  'a an and the of to in on for with at by from or as is are was were be been has have had not no yes patient patients history chronic acute left right daily mg twice once per day days take takes taking other unspecified without'.split(' '),
);

/** A session's context as decoder words, at the tuned weight (null when it has none). */
export function decoderBias(bias: SpeechBias | undefined, weight: number): DecoderBias | null {
  if (!bias || !(weight > 0)) return null;
  const words = new Set<string>();
  const add = (text: string, minLength: number) => {
    for (const w of text.toLowerCase().split(/[^a-z'-]+/)) {
      const t = w.replace(/^['-]+|['-]+$/g, '');
      if (t.length >= minLength && !COMMON.has(t)) words.add(t);
    }
  };
  for (const t of bias.terms) add(t, 3);
  // Free text is long and mostly common words; only its longer words are specific enough to help.
  if (bias.text) add(bias.text, 7);
  const list = [...words].slice(0, 400);
  return list.length ? { words: list.map((word) => ({ word })), weight } : null;
}

function toWords(raw: RawWord[], offsetMs: number): WordTiming[] {
  return raw.map((w) => ({
    word: w.word,
    startMs: Math.round(offsetMs + w.startMs),
    endMs: Math.round(offsetMs + w.endMs),
    ...(w.confidence !== undefined ? { confidence: w.confidence } : {}),
  }));
}

/** A segment is as sure as its words on average, weighted by how long each was spoken. */
export function segmentConfidence(words: WordTiming[]): number | undefined {
  const scored = words.filter((w) => w.confidence !== undefined);
  if (!scored.length) return undefined;
  const dur = scored.reduce((a, w) => a + Math.max(1, w.endMs - w.startMs), 0);
  return Math.round((scored.reduce((a, w) => a + w.confidence! * Math.max(1, w.endMs - w.startMs), 0) / dur) * 1000) / 1000;
}

export class EmbeddedSpeechEngine implements SpeechEngine {
  readonly name = 'embedded';
  readonly pool: DecoderPool;
  readonly model: DecoderModel;
  private readonly segmenter: SegmenterFactory;
  private readonly biasWeight: number;

  constructor(opts: EmbeddedOptions = {}) {
    this.model = resolveModel(opts);
    this.biasWeight = opts.biasWeight ?? readInterpolation()?.bias ?? 0;
    this.pool = new DecoderPool(this.model, opts.poolSize ?? os.availableParallelism());
    this.segmenter = opts.segmenter ?? segmenterFactory(DEFAULT_VAD, opts.vad);
  }

  /** Loads the models in every decoder thread ahead of the first stream. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  openStream(options: SpeechStreamOptions): SpeechStream {
    return new EmbeddedStream(this.pool, options, this.segmenter(), decoderBias(options.bias, this.biasWeight));
  }

  /**
   * With `options.decoded` from a live stream of this engine, its utterances are replayed under a grammar
   * instead of decoded (ffi.ts replaying()) and only the ones after them go through the language model.
   */
  async transcribe(pcm: Buffer, options: TranscribeOptions = {}): Promise<SpeechSegment[]> {
    const prior = options.decoded;
    if (prior?.complete && prior.bytes === pcm.length) return prior.segments.slice();
    const replay = prior && !prior.complete ? prior : null;
    const out: SpeechSegment[] = replay ? [...replay.segments] : [];
    let err: Error | null = null;
    const s = new EmbeddedStream(
      this.pool,
      { onSegment: (seg) => seg.isFinal && out.push(seg), onError: (e) => (err = e), bias: options.bias, onUnbiased: options.onUnbiased },
      this.segmenter(),
      decoderBias(options.bias, this.biasWeight),
      replay?.utterances ?? 0,
      true,
    );
    // Chunks of a second keep the worker's message queue short.
    for (let o = 0; o < pcm.length; o += 32000) s.write(pcm.subarray(o, Math.min(pcm.length, o + 32000)));
    await s.end();
    if (err) throw err;
    return out;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

interface Checkpoint {
  utterances: number;
  bytes: number;
  sha256: string;
  complete: boolean;
  finalsCount: number;
  endedByAudio?: DecodedPrefix['endedByAudio'];
}

/** Audio over which the arrival rate is judged: long enough that a client's chunking is not mistaken for a burst. */
const RATE_WINDOW_BYTES = SAMPLE_RATE_HZ * 2;
/** Audio arriving this much faster than it is spoken is a backlog or a recording sent at once: no partials. */
const LAGGING_RATE = 1.3;

class EmbeddedStream implements SpeechStream {
  /** Opened at the first utterance: a decoder is ~18 MB, and a stream that never carries speech needs none. */
  private conn: ReturnType<DecoderPool['open']> | null = null;
  private utt = 0;
  private uttStartMs = new Map<number, number>();
  private readonly aligner = new SampleAligner();
  private closed = false;
  private flushed: (() => void) | null = null;
  private failed: Error | null = null;
  /** Everything fed, and where in it each utterance ended, for decoded(). */
  private readonly fedHash = crypto.createHash('sha256');
  private fedBytes = 0;
  private readonly endedAt = new Map<number, { bytes: number; sha256: string }>();
  private readonly finals: SpeechSegment[] = [];
  private checkpoint: Checkpoint | null = null;
  /** Arrival rate of the current window (see LAGGING_RATE), and whether the last window was too fast. */
  private windowStart = -1;
  private windowBytes = 0;
  /** Until a window has shown the pace, the audio may be a backlog: no partials for its first second. */
  private lagging = true;
  /** The session's vocabulary could not be used: every segment says so. */
  private unbiased = false;
  /** Written audio not yet handed to the detector (audio-batch.ts). */
  private readonly batch = new AudioBatcher((pcm) => this.feed(pcm), (e) => this.fail(e));

  constructor(
    private readonly pool: DecoderPool,
    private readonly options: SpeechStreamOptions,
    private readonly vad: Segmenter,
    private readonly bias: DecoderBias | null = null,
    /** Utterances 1..replayThrough are replayed, not decoded (transcribe() with a decoded prefix). */
    private readonly replayThrough = 0,
    /** A final pass (transcribe()): counted as such, and its decoder skips partial hypotheses. */
    private readonly finalPass = false,
  ) {}

  private connection(): ReturnType<DecoderPool['open']> {
    if (!this.conn) {
      this.conn = this.pool.open((m) => this.onMessage(m), this.bias ?? undefined, this.finalPass, this.options.partials);
      this.conn.ready.catch((e: Error) => this.fail(e));
    }
    return this.conn;
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = e;
    this.options.onError?.(e);
    this.flushed?.();
  }

  private onMessage(m: FromWorker): void {
    if (this.closed && m.t !== 'flushed') return;
    if (m.t === 'error') return this.fail(new Error(m.message));
    if (m.t === 'flushed') return this.flushed?.();
    if (m.t === 'unbiased') {
      this.unbiased = true;
      return this.options.onUnbiased?.(m.message);
    }
    if (m.t !== 'partial' && m.t !== 'final') return;
    const offset = this.uttStartMs.get(m.utt) ?? 0;
    const words = toWords(m.words, offset);
    if (m.t === 'final') this.uttStartMs.delete(m.utt);
    if (words.length) {
      const seg: SpeechSegment = {
        text: words.map((w) => w.word).join(' '),
        startMs: words[0]!.startMs,
        endMs: words[words.length - 1]!.endMs,
        isFinal: m.t === 'final',
        words,
        lang: 'en',
      };
      const confidence = m.t === 'final' ? segmentConfidence(words) : undefined;
      if (confidence !== undefined) seg.confidence = confidence;
      if (this.unbiased) seg.unbiased = true;
      if (seg.isFinal) this.finals.push(seg);
      try {
        this.options.onSegment(seg);
      } catch (e) {
        this.fail(e as Error);
      }
    }
    const at = m.t === 'final' ? this.endedAt.get(m.utt) : undefined;
    if (at) {
      this.endedAt.delete(m.utt);
      this.checkpoint = { utterances: m.utt, ...at, complete: false, finalsCount: this.finals.length };
    }
  }

  /** See DecodedPrefix: only utterances that the audio itself ended count, not one cut by end(). */
  decoded(): DecodedPrefix | null {
    if (!this.checkpoint || this.failed) return null;
    const { finalsCount, ...c } = this.checkpoint;
    return { ...c, segments: this.finals.slice(0, finalsCount) };
  }

  write(pcm: Buffer): void {
    if (this.closed) throw new Error('speech stream is closed');
    this.judgeRate(pcm.length);
    this.batch.push(pcm);
  }

  private feed(pcm: Buffer): void {
    this.fedHash.update(pcm);
    this.fedBytes += pcm.length;
    this.route(
      timeStageCpu(this.finalPass ? 'final_vad' : 'live_vad', () => this.vad.push(this.aligner.push(pcm))),
      true,
    );
  }

  private judgeRate(bytes: number): void {
    const now = performance.now();
    // The pace is judged from the first write: a stream is opened before its audio starts.
    if (this.windowStart < 0) this.windowStart = now;
    this.windowBytes += bytes;
    if (this.windowBytes < RATE_WINDOW_BYTES) return;
    const audioMs = (this.windowBytes / 2 / SAMPLE_RATE_HZ) * 1000;
    this.lagging = audioMs > (now - this.windowStart) * LAGGING_RATE;
    this.windowStart = now;
    this.windowBytes = 0;
  }

  /** `byAudio`: the events came from audio, so an utterance they end would end there in any longer audio too. */
  private route(events: VadEvent[], byAudio: boolean): void {
    let batch: Int16Array[] = [];
    const sendBatch = () => {
      if (!batch.length) return;
      const n = batch.reduce((a, b) => a + b.length, 0);
      const samples = new Int16Array(n);
      let o = 0;
      for (const b of batch) {
        samples.set(b, o);
        o += b.length;
      }
      batch = [];
      this.connection().send({ t: 'audio', utt: this.utt, samples, sentAt: Date.now(), lagging: this.lagging }, [samples.buffer as ArrayBuffer]);
    };
    for (const e of events) {
      if (e.type === 'start') {
        this.utt++;
        this.uttStartMs.set(this.utt, (e.startSample * 1000) / SAMPLE_RATE_HZ);
        this.connection().send({ t: 'start', utt: this.utt, replay: this.utt <= this.replayThrough });
      } else if (e.type === 'audio') batch.push(e.samples);
      else {
        sendBatch();
        if (byAudio) this.endedAt.set(this.utt, { bytes: this.fedBytes, sha256: this.fedHash.copy().digest('hex') });
        this.connection().send({ t: 'endUtt', utt: this.utt });
      }
    }
    sendBatch();
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.batch.flush();
    this.route(timeStageCpu(this.finalPass ? 'final_vad' : 'live_vad', () => this.vad.flush()), false);
    const conn = this.conn;
    if (conn) {
      const done = new Promise<void>((res) => (this.flushed = res));
      conn.send({ t: 'flush' });
      await done;
    }
    // The last utterance the audio itself ended is kept: a longer audio beginning with these bytes has it too.
    const byAudio = this.checkpoint;
    this.checkpoint = {
      utterances: this.utt,
      bytes: this.fedBytes,
      sha256: this.fedHash.copy().digest('hex'),
      complete: true,
      finalsCount: this.finals.length,
      ...(byAudio ? { endedByAudio: { utterances: byAudio.utterances, bytes: byAudio.bytes, sha256: byAudio.sha256, segments: byAudio.finalsCount } } : {}),
    };
    this.closed = true;
    conn?.release();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.batch.discard();
    this.vad.release();
    this.conn?.release();
    this.flushed?.();
  }
}
