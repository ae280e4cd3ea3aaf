import { pcm16ToFloat, SampleAligner } from '../audio.js';
import type { SpeechSegment, SpeechStream, SpeechStreamOptions } from '../types.js';
import { toSegment } from './mapping.js';
import type { OnlineRecognizer, OnlineStream } from './native.js';
import { releaseNativeMemory } from './release-native-memory.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/**
 * A live stream on the directory's streaming model (zipformer transducer or paraformer): partials as the
 * text grows, a final segment at each endpoint (a pause, recognizer-config.ts), offsets from the stream's
 * start. Decoding a chunk takes a few milliseconds, so it runs in the socket's turn.
 */
export class OnlineSherpaStream implements SpeechStream {
  private readonly stream: OnlineStream;
  private readonly aligner = new SampleAligner();
  /** Samples fed so far, and where the current utterance began: results count from the last reset. */
  private fed = 0;
  private uttStart = 0;
  private lastText = '';
  private closed = false;

  constructor(
    private readonly rec: OnlineRecognizer,
    private readonly options: SpeechStreamOptions,
    private readonly lang?: string,
  ) {
    this.stream = rec.createStream();
  }

  write(pcm: Buffer): void {
    if (this.closed) throw new Error('speech stream is closed');
    const samples = pcm16ToFloat(this.aligner.push(pcm));
    if (!samples.length) return;
    this.stream.acceptWaveform({ samples, sampleRate: SAMPLE_RATE_HZ });
    this.fed += samples.length;
    this.pump(false);
  }

  private pump(flush: boolean): void {
    try {
      while (this.rec.isReady(this.stream)) this.rec.decode(this.stream);
      const endpoint = flush || this.rec.isEndpoint(this.stream);
      const r = this.rec.getResult(this.stream);
      // Transducers count token times from the utterance's start, which they report as start_time;
      // paraformer reports neither (start_time stays 0), so its utterance starts where the last one ended.
      const fromRuntime = r.start_time !== undefined && (r.start_time > 0 || this.uttStart === 0);
      const offsetMs = fromRuntime ? r.start_time! * 1000 : (this.uttStart * 1000) / SAMPLE_RATE_HZ;
      const durationMs = (this.fed * 1000) / SAMPLE_RATE_HZ - offsetMs;
      const seg = toSegment({ text: r.text, tokens: r.tokens, timestamps: r.timestamps, logProbs: r.ys_probs }, offsetMs, durationMs, this.lang);
      if (seg && (endpoint || r.text !== this.lastText)) this.emit({ ...seg, isFinal: endpoint });
      this.lastText = endpoint ? '' : r.text;
      if (endpoint && !flush) {
        this.rec.reset(this.stream);
        this.uttStart = this.fed;
      }
    } catch (e) {
      this.options.onError?.(e as Error);
    }
  }

  private emit(seg: SpeechSegment): void {
    if (!seg.isFinal) delete seg.confidence;
    this.options.onSegment(seg);
  }

  async end(): Promise<void> {
    if (this.closed) return;
    // Paraformer decodes a last chunk shorter than its window only when told it is the last.
    this.stream.setOption('is_final', '1');
    this.stream.inputFinished();
    this.pump(true);
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // The stream's native state goes only when V8 collects it.
    releaseNativeMemory();
  }
}
