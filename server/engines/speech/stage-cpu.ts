import koffi from 'koffi';

/**
 * Where the speech engine's CPU goes, per stage (issue 30 item 1), for /metrics and bench:load. Thread CPU
 * time (CLOCK_THREAD_CPUTIME_ID), not wall time: on a loaded machine a stage's wall time is mostly waiting
 * for a core. The counters live in shared memory so that the decoder threads add into the same ones as the
 * event loop, and on globalThis because Next bundles a second copy of server modules.
 */
export const SPEECH_STAGES = [
  /** ps_process_raw and ps_end_utt of live streams (pocketsphinx worker threads). */
  'live_decode',
  /** Partial hypotheses of live streams (ps_seg_iter mid-utterance). */
  'live_partial',
  /** The live stream's voice-activity detector (event loop). */
  'live_vad',
  /** The final pass's decoding (worker threads) and its voice-activity detector (event loop). */
  'final_decode',
  'final_vad',
  /** Building decoders (ps_init, a session's vocabulary). */
  'decoder_init',
  /** assignSpeakerRoles: pitch and cepstrum per segment, clustering (event loop). */
  'speaker_roles',
] as const;
export type SpeechStage = (typeof SPEECH_STAGES)[number];

const KEY = Symbol.for('ambient.speechStageCpu');
type Holder = { [KEY]?: BigInt64Array };

/** Nanoseconds per stage, shared with the decoder threads (pass `stageCpuBuffer()` in their workerData). */
function counters(): BigInt64Array {
  const g = globalThis as Holder;
  g[KEY] ??= new BigInt64Array(new SharedArrayBuffer(SPEECH_STAGES.length * 8));
  return g[KEY];
}

export function stageCpuBuffer(): SharedArrayBuffer {
  return counters().buffer as SharedArrayBuffer;
}

/** In a decoder thread: count into the event loop's counters. */
export function adoptStageCpuBuffer(buf: SharedArrayBuffer | undefined): void {
  if (buf) (globalThis as Holder)[KEY] = new BigInt64Array(buf);
}

const CLOCK_THREAD_CPUTIME_ID = 3;
type Clock = (id: number, ts: BigInt64Array) => number;
let clock: Clock | null | undefined;
const ts = new BigInt64Array(2);

/** CPU time of the calling thread in ns; 0n where the C library cannot say (then nothing is counted). */
export function threadCpuNs(): bigint {
  if (clock === undefined) {
    try {
      clock = koffi.load('libc.so.6').func('int clock_gettime(int clk, _Out_ void *tp)') as unknown as Clock;
    } catch {
      clock = null;
    }
  }
  if (!clock || clock(CLOCK_THREAD_CPUTIME_ID, ts) !== 0) return 0n;
  return ts[0]! * 1_000_000_000n + ts[1]!;
}

export function addStageCpu(stage: SpeechStage, ns: bigint): void {
  if (ns > 0n) Atomics.add(counters(), SPEECH_STAGES.indexOf(stage), ns);
}

/** Runs fn and counts the calling thread's CPU during it to `stage`. */
export function timeStageCpu<T>(stage: SpeechStage, fn: () => T): T {
  const t0 = threadCpuNs();
  try {
    return fn();
  } finally {
    addStageCpu(stage, threadCpuNs() - t0);
  }
}

/** CPU-seconds per stage since the process started. */
export function stageCpuSeconds(): Record<SpeechStage, number> {
  const c = counters();
  return Object.fromEntries(SPEECH_STAGES.map((s, i) => [s, Number(Atomics.load(c, i)) / 1e9])) as Record<SpeechStage, number>;
}
