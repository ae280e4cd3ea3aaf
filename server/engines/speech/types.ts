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
  /**
   * Decoded without the session's context vocabulary although it had one: the biased decoder could not be
   * built (e.g. out of memory), so the base model was used (issue 30 item 6). Absent otherwise.
   */
  unbiased?: true;
}

/**
 * What a live stream has decoded for good (issue 18: decode each second once): the final segments of its
 * first `utterances` utterances, which the first `bytes` bytes fed to it determine (`sha256` of those bytes).
 * `complete`: the stream was ended and flushed with nothing fed after `bytes`, so the segments are its whole
 * result (its last utterance may have been closed by the end of the audio, so only audio of exactly
 * `bytes` bytes has that result).
 */
export interface DecodedPrefix {
  utterances: number;
  bytes: number;
  sha256: string;
  complete: boolean;
  segments: SpeechSegment[];
  /**
   * Of a `complete` result: its first `segments` segments, of the first `utterances` utterances, which the
   * audio itself ended within its first `bytes` bytes (`sha256`), so longer audio beginning with those bytes
   * gives them too (a recording part joined to the next one at finalisation). Absent when the audio ended none.
   */
  endedByAudio?: { utterances: number; bytes: number; sha256: string; segments: number };
}

/** A live recognition stream: PCM16 LE mono 16 kHz in, partial and final segments out through onSegment. */
export interface SpeechStream {
  write(pcm: Buffer): void;
  /** Flushes buffered audio and resolves once every final segment has been emitted. */
  end(): Promise<void>;
  /** Stops without waiting for the remaining audio. */
  close(): void;
  /** What it has decoded for good so far, for engines whose transcribe() can take it (null otherwise). */
  decoded?(): DecodedPrefix | null;
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
  /**
   * Partial hypotheses are paced for a reader (a few a second) and skipped while the audio arrives faster
   * than it is spoken (a backlog, a recording sent at once); `every` asks for one per half-second of audio
   * whatever the pace, for tests that show partials leave the finals unchanged. Engines may ignore it.
   */
  partials?: 'paced' | 'every';
  /** The session's vocabulary could not be used (see SpeechSegment.unbiased): why, for the caller's log. */
  onUnbiased?: (reason: string) => void;
}

export interface TranscribeOptions {
  bias?: SpeechBias;
  /**
   * A live stream's decoded prefix of this very audio (the caller has checked the bytes, the engine build and
   * the vocabulary): its segments are taken and only the rest is decoded, with the same result as decoding
   * all. Engines that cannot resume ignore it.
   */
  decoded?: DecodedPrefix;
  /** As SpeechStreamOptions.onUnbiased. */
  onUnbiased?: (reason: string) => void;
}

export interface SpeechEngine {
  readonly name: string;
  openStream(options: SpeechStreamOptions): SpeechStream;
  /** Whole-file recognition of PCM16 LE mono 16 kHz audio; returns final segments in order. */
  transcribe(pcm: Buffer, options?: TranscribeOptions): Promise<SpeechSegment[]>;
  close(): Promise<void>;
}
