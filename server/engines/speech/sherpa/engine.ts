import type { SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions } from '../types.js';
import { toSegment } from './mapping.js';
import { resolveModelDir, type ModelDir } from './model-dir.js';
import { sherpa, type OfflineRecognizer, type OnlineRecognizer } from './native.js';
import { OnlineSherpaStream } from './online.js';
import { probeModelDir } from './probe.js';
import { offlineRecognizerConfig, onlineRecognizerConfig, type VadSettings } from './recognizer-config.js';
import { vadStretches } from './vad.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

export interface SherpaOptions {
  /** SPEECH_MODEL_DIR: model.json or the file names of sherpa-onnx's published archives (model-dir.ts). */
  modelDir: string;
  /** ONNX Runtime threads per decode. */
  numThreads?: number;
  vad?: VadSettings;
  /**
   * Builds the engine for live partials when the directory has no streaming model (the embedded engine);
   * built on the first stream, so a process that only finalises never starts decoder threads.
   */
  live?: () => SpeechEngine;
  /** Loads the models in a child process first (default): a model the runtime cannot use fails here. */
  probe?: boolean;
}

/**
 * Neural speech in-process through sherpa-onnx. The final pass over a stored recording runs the offline model
 * (NeMo CTC, SenseVoice, Whisper, Moonshine or a NeMo transducer) on the stretches Silero VAD finds; live
 * streams run the directory's streaming model, or the embedded engine when it has none. Built by
 * createSpeechEngine, which the composition root calls at start-up so that a bad directory stops the service
 * there with an error naming the file.
 */
export class SherpaSpeechEngine implements SpeechEngine {
  readonly name = 'sherpa';
  readonly model: ModelDir;
  private readonly recognizer: OfflineRecognizer;
  private readonly online: OnlineRecognizer | null;
  private liveEngine: SpeechEngine | null = null;
  private readonly modelLang: string | undefined;

  constructor(private readonly opts: SherpaOptions) {
    this.model = resolveModelDir(opts.modelDir);
    const threads = opts.numThreads ?? 1;
    if (opts.probe !== false) probeModelDir(this.model, threads);
    const lib = sherpa();
    this.recognizer = new lib.OfflineRecognizer(offlineRecognizerConfig(this.model.offline, threads));
    this.online = this.model.streaming ? new lib.OnlineRecognizer(onlineRecognizerConfig(this.model.streaming, threads)) : null;
    const langs = this.model.languages;
    this.modelLang = this.model.offline.language || (langs?.length === 1 ? langs[0] : undefined);
  }

  /** Which model answers live streams: the streaming one, or the fallback engine's name. */
  get liveSource(): string {
    return this.online ? `sherpa:${this.model.streaming!.family}` : 'embedded';
  }

  openStream(options: SpeechStreamOptions): SpeechStream {
    if (this.online) return new OnlineSherpaStream(this.online, options, this.modelLang);
    if (!this.opts.live) return { write() {}, end: async () => {}, close() {} };
    this.liveEngine ??= this.opts.live();
    return this.liveEngine.openStream(options);
  }

  /**
   * Whole-recording recognition: Silero VAD stretches, each decoded by the offline model on the libuv pool
   * (the event loop keeps serving streams), mapped to final segments with offsets from the recording's start.
   * Context bias is not applied: the supported families take no vocabulary at decode time.
   */
  async transcribe(pcm: Buffer, _options: TranscribeOptions = {}): Promise<SpeechSegment[]> {
    const out: SpeechSegment[] = [];
    for await (const stretch of vadStretches(pcm, this.model.vad, this.opts.vad)) {
      const stream = this.recognizer.createStream();
      stream.acceptWaveform({ samples: stretch.samples, sampleRate: SAMPLE_RATE_HZ });
      const r = await this.recognizer.decodeAsync(stream);
      const offsetMs = (stretch.start * 1000) / SAMPLE_RATE_HZ;
      const durationMs = (stretch.samples.length * 1000) / SAMPLE_RATE_HZ;
      const seg = toSegment({ ...r, logProbs: r.ys_log_probs }, offsetMs, durationMs, this.modelLang);
      if (seg) out.push(seg);
    }
    return out;
  }

  async close(): Promise<void> {
    const live = this.liveEngine;
    this.liveEngine = null;
    await live?.close();
  }
}
