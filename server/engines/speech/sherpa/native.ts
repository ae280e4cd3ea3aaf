import { createRequire } from 'node:module';

/** The part of sherpa-onnx-node's API the engine uses (the package ships no type declarations). */
export interface Waveform {
  samples: Float32Array;
  sampleRate: number;
}

export interface OfflineResult {
  text: string;
  /** Seconds from the start of the audio given to the stream, one per token. */
  timestamps: number[];
  durations?: number[];
  tokens: string[];
  lang: string;
  emotion?: string;
  event?: string;
  /** Per-token log posteriors, for the families that give them (transducers). */
  ys_log_probs?: number[];
}

export interface OfflineStream {
  acceptWaveform(w: Waveform): void;
}

export interface OfflineRecognizer {
  createStream(): OfflineStream;
  decode(s: OfflineStream): void;
  decodeAsync(s: OfflineStream): Promise<OfflineResult>;
  getResult(s: OfflineStream): OfflineResult;
}

export interface OnlineStream {
  acceptWaveform(w: Waveform): void;
  inputFinished(): void;
  setOption(key: string, value: string): void;
}

export interface OnlineResult {
  text: string;
  tokens: string[];
  /** Seconds from start_time. */
  timestamps: number[];
  /** Per-token log posteriors. */
  ys_probs?: number[];
  /** Seconds from the stream's start to this utterance's (results count from the last reset). */
  start_time?: number;
}

export interface OnlineRecognizer {
  createStream(): OnlineStream;
  isReady(s: OnlineStream): boolean;
  decode(s: OnlineStream): void;
  isEndpoint(s: OnlineStream): boolean;
  reset(s: OnlineStream): void;
  getResult(s: OnlineStream): OnlineResult;
}

export interface VadSegment {
  /** Sample index of the segment's first sample. */
  start: number;
  samples: Float32Array;
}

export interface Vad {
  acceptWaveform(samples: Float32Array): void;
  isEmpty(): boolean;
  front(enableExternalBuffer?: boolean): VadSegment;
  pop(): void;
  flush(): void;
  reset(): void;
}

export type RecognizerConfig = Record<string, unknown>;

export interface SherpaModule {
  OfflineRecognizer: { new (config: RecognizerConfig): OfflineRecognizer; createAsync(config: RecognizerConfig): Promise<OfflineRecognizer> };
  OnlineRecognizer: new (config: RecognizerConfig) => OnlineRecognizer;
  Vad: new (config: RecognizerConfig, bufferSeconds: number) => Vad;
  version: string;
}

const requireNative = createRequire(import.meta.url);

/**
 * Loaded on first use through require (which keeps the one copy), so that a process on another engine
 * never maps the native library, and bundlers never follow the import.
 */
export function sherpa(): SherpaModule {
  return requireNative('sherpa-onnx-node') as SherpaModule;
}
