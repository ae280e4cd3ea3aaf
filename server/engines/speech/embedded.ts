import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SampleAligner } from './audio.js';
import { FRAME_MS, stockModel, type DecoderModel, type RawWord } from './pocketsphinx/ffi.js';
import { DecoderPool } from './pocketsphinx/pool.js';
import type { FromWorker } from './pocketsphinx/worker.js';
import type { SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, WordTiming } from './types.js';
import { VadSegmenter, type VadOptions } from './vad.js';

export const CLINICAL_MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');

export interface EmbeddedOptions {
  /** Decoder threads; defaults to the number of cores. */
  poolSize?: number;
  /** `clinical` (built by `npm run speech:build-lm`, the default when present) or `stock` (Debian's en-us LM). */
  lm?: 'clinical' | 'stock';
  /** Overrides the model entirely (benchmarks, experiments). */
  model?: DecoderModel;
  vad?: VadOptions;
}

/** The clinical model's files and the decoder settings the build tuned for it, or null when not built. */
export function clinicalModel(dir = CLINICAL_MODEL_DIR): DecoderModel | null {
  const dict = path.join(dir, 'clinical.dict');
  const lm = ['clinical.lm.bin', 'clinical.lm'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!lm || !fs.existsSync(dict)) return null;
  const settingsFile = path.join(dir, 'decoder.json');
  const args = fs.existsSync(settingsFile) ? (JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, string>) : {};
  return { hmm: stockModel().hmm, lm, dict, args };
}

export function resolveModel(opts: EmbeddedOptions): DecoderModel {
  if (opts.model) return opts.model;
  if (opts.lm === 'stock') return stockModel();
  const clinical = clinicalModel();
  if (clinical) return clinical;
  if (opts.lm === 'clinical') throw new Error('clinical speech model not built: run npm run speech:build-lm');
  return stockModel();
}

function toWords(raw: RawWord[], offsetMs: number): WordTiming[] {
  return raw.map((w) => ({
    word: w.word,
    startMs: Math.round(offsetMs + w.startFrame * FRAME_MS),
    endMs: Math.round(offsetMs + (w.endFrame + 1) * FRAME_MS),
  }));
}

export class EmbeddedSpeechEngine implements SpeechEngine {
  readonly name = 'embedded';
  readonly pool: DecoderPool;
  readonly model: DecoderModel;
  private readonly vadOptions: VadOptions;

  constructor(opts: EmbeddedOptions = {}) {
    this.model = resolveModel(opts);
    this.pool = new DecoderPool(this.model, opts.poolSize ?? os.availableParallelism());
    this.vadOptions = opts.vad ?? {};
  }

  /** Loads the models in every decoder thread ahead of the first stream. */
  warm(): Promise<void> {
    return this.pool.warm();
  }

  openStream(options: SpeechStreamOptions): SpeechStream {
    return new EmbeddedStream(this.pool, options, this.vadOptions);
  }

  async transcribe(pcm: Buffer): Promise<SpeechSegment[]> {
    const out: SpeechSegment[] = [];
    let err: Error | null = null;
    const s = this.openStream({
      onSegment: (seg) => seg.isFinal && out.push(seg),
      onError: (e) => (err = e),
    });
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

class EmbeddedStream implements SpeechStream {
  private readonly vad: VadSegmenter;
  /** Opened at the first utterance: a decoder is ~18 MB, and a stream that never carries speech needs none. */
  private conn: ReturnType<DecoderPool['open']> | null = null;
  private utt = 0;
  private uttStartMs = new Map<number, number>();
  private readonly aligner = new SampleAligner();
  private closed = false;
  private flushed: (() => void) | null = null;
  private failed: Error | null = null;

  constructor(
    private readonly pool: DecoderPool,
    private readonly options: SpeechStreamOptions,
    vadOptions: VadOptions,
  ) {
    this.vad = new VadSegmenter(vadOptions);
  }

  private connection(): ReturnType<DecoderPool['open']> {
    if (!this.conn) {
      this.conn = this.pool.open((m) => this.onMessage(m));
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
    if (m.t !== 'partial' && m.t !== 'final') return;
    const offset = this.uttStartMs.get(m.utt) ?? 0;
    const words = toWords(m.words, offset);
    if (m.t === 'final') this.uttStartMs.delete(m.utt);
    if (!words.length) return;
    const seg: SpeechSegment = {
      text: words.map((w) => w.word).join(' '),
      startMs: words[0]!.startMs,
      endMs: words[words.length - 1]!.endMs,
      isFinal: m.t === 'final',
      words,
      lang: 'en',
    };
    try {
      this.options.onSegment(seg);
    } catch (e) {
      this.fail(e as Error);
    }
  }

  write(pcm: Buffer): void {
    if (this.closed) throw new Error('speech stream is closed');
    this.route(this.vad.push(this.aligner.push(pcm)));
  }

  private route(events: ReturnType<VadSegmenter['push']>): void {
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
      this.connection().send({ t: 'audio', utt: this.utt, samples }, [samples.buffer as ArrayBuffer]);
    };
    for (const e of events) {
      if (e.type === 'start') {
        this.utt++;
        this.uttStartMs.set(this.utt, (e.startSample * 1000) / 16000);
        this.connection().send({ t: 'start', utt: this.utt });
      } else if (e.type === 'audio') batch.push(e.samples);
      else {
        sendBatch();
        this.connection().send({ t: 'endUtt', utt: this.utt });
      }
    }
    sendBatch();
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.route(this.vad.flush());
    const conn = this.conn;
    if (conn) {
      const done = new Promise<void>((res) => (this.flushed = res));
      conn.send({ t: 'flush' });
      await done;
    }
    this.closed = true;
    conn?.release();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.conn?.release();
    this.flushed?.();
  }
}
