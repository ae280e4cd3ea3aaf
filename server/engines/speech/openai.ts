import { encodeWavPcm16 } from './audio.js';
import { ChunkedStream } from './openai-chunker.js';
import { TranscriptionClient, type OpenAISpeechOptions } from './openai-client.js';
import { biasPrompt, toSegments } from './openai-mapping.js';
import type { SpeechEngine, SpeechSegment, SpeechStream, SpeechStreamOptions, TranscribeOptions } from './types.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/**
 * Client of the OpenAI-compatible `/v1/audio/transcriptions` API (OpenAI, Groq, self-hosted whisper
 * servers such as faster-whisper-server or whisper.cpp's server). That API is not streaming, so a live
 * stream is cut into chunks at pauses and each chunk is sent as soon as it completes.
 */
export class OpenAISpeechEngine implements SpeechEngine {
  readonly name = 'openai';
  private readonly client: TranscriptionClient;

  constructor(readonly opts: OpenAISpeechOptions) {
    this.client = new TranscriptionClient(opts);
  }

  /** Transcribes one chunk of PCM16 mono 16 kHz; times in the result are offset by offsetMs. */
  async transcribeChunk(pcm: Buffer, offsetMs = 0, prompt?: string): Promise<SpeechSegment[]> {
    const wav = encodeWavPcm16(pcm);
    const durationMs = ((pcm.length >> 1) * 1000) / SAMPLE_RATE_HZ;
    const body = await this.client.request(wav, prompt);
    return toSegments(body, offsetMs, durationMs, this.opts.language);
  }

  openStream(options: SpeechStreamOptions): SpeechStream {
    const prompt = biasPrompt(options.bias);
    return new ChunkedStream((pcm, offsetMs) => this.transcribeChunk(pcm, offsetMs, prompt), this.opts, options);
  }

  async transcribe(pcm: Buffer, options: TranscribeOptions = {}): Promise<SpeechSegment[]> {
    const out: SpeechSegment[] = [];
    let err: Error | null = null;
    const s = this.openStream({ onSegment: (seg) => out.push(seg), onError: (e) => (err ??= e), bias: options.bias });
    s.write(pcm);
    await s.end();
    if (err) throw err;
    return out;
  }

  async close(): Promise<void> {}
}
