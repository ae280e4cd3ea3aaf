export type SpeakerRole = 'CLINICIAN' | 'PATIENT' | 'UNKNOWN';

export interface WordTiming {
  word: string;
  startMs: number;
  endMs: number;
  /** 0–1 posterior of the word where the engine gives one (DESIGN §12). */
  confidence?: number;
}

/** A recognised stretch of speech; offsets are relative to the start of the audio fed to the stream. */
export interface SpeechSegment {
  text: string;
  startMs: number;
  endMs: number;
  isFinal: boolean;
  words: WordTiming[];
  speaker?: SpeakerRole;
  lang?: string;
  /** 0–1 confidence of the whole segment where the engine gives one. */
  confidence?: number;
}

/** A live recognition stream: PCM16 LE mono 16 kHz in, partial and final segments out through onSegment. */
export interface SpeechStream {
  write(pcm: Buffer): void;
  /** Flushes buffered audio and resolves once every final segment has been emitted. */
  end(): Promise<void>;
  /** Stops without waiting for the remaining audio. */
  close(): void;
}

/**
 * A session's context for recognition (issue 14): the words it is likely to hear. The embedded engine
 * gives them a boosted vocabulary of the session's own; the OpenAI-compatible engine sends them as its
 * `prompt`.
 */
export interface SpeechBias {
  /** Short terms: EMR medications and problems, context diagnoses and orders, chief complaint, specialty. */
  terms: string[];
  /** Longer free text from the session (precharted sections); only its rarer words bias the embedded engine. */
  text?: string;
}

export interface SpeechStreamOptions {
  onSegment: (segment: SpeechSegment) => void;
  onError?: (error: Error) => void;
  bias?: SpeechBias;
}

export interface TranscribeOptions {
  bias?: SpeechBias;
}

export interface SpeechEngine {
  readonly name: string;
  openStream(options: SpeechStreamOptions): SpeechStream;
  /** Whole-file recognition of PCM16 LE mono 16 kHz audio; returns final segments in order. */
  transcribe(pcm: Buffer, options?: TranscribeOptions): Promise<SpeechSegment[]>;
  close(): Promise<void>;
}
