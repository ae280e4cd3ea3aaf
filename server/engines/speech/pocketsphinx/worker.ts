/**
 * Decoder worker thread: owns pocketsphinx decoders and runs them off the event loop. Each stream is
 * pinned to one worker because a decoder holds the state of the utterance in progress.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PocketSphinxDecoder, type DecoderBias, type DecoderModel, type RawWord } from './ffi.js';
import { returnFreedMemory } from './heap.js';
import { adoptStageCpuBuffer, timeStageCpu } from '../stage-cpu.js';

export type ToWorker =
  /** `final`: a final pass (transcribe()), whose partial hypotheses nobody reads; `partials`: see SpeechStreamOptions. */
  | { t: 'open'; id: number; bias?: DecoderBias; final?: boolean; partials?: 'paced' | 'every' }
  /** `replay`: the utterance's words are known already; it is decoded only for the state it leaves (ffi.ts replaying()). */
  | { t: 'start'; id: number; utt: number; replay?: boolean }
  /**
   * `sentAt` (Date.now() when posted) tells how far this thread is behind; `lagging`: the audio is arriving
   * faster than it is spoken (a backlog being caught up, or a client sending a recording as fast as it can).
   */
  | { t: 'audio'; id: number; utt: number; samples: Int16Array; sentAt?: number; lagging?: boolean }
  | { t: 'endUtt'; id: number; utt: number }
  | { t: 'flush'; id: number }
  | { t: 'close'; id: number }
  /** The pool is closing: free every decoder and end this thread (id unused). */
  | { t: 'shutdown'; id: number };

export type FromWorker =
  | { t: 'ready'; initMs: number }
  | { t: 'partial'; id: number; utt: number; words: RawWord[] }
  | { t: 'final'; id: number; utt: number; words: RawWord[] }
  | { t: 'flushed'; id: number }
  /** The stream's biased decoder could not be built: it decodes with the base model (issue 30 item 6). */
  | { t: 'unbiased'; id: number; message: string }
  | { t: 'error'; id: number; message: string };

const { model, stageCpu, cancelled: cancelledBuf } = workerData as { model: DecoderModel; stageCpu?: SharedArrayBuffer; cancelled: SharedArrayBuffer };
adoptStageCpuBuffer(stageCpu);
/** Streams released by their owner (pool.ts): what is still queued for them is not decoded. */
const cancelled = new Int32Array(cancelledBuf);
const CANCEL_SLOTS = cancelled.length;
const port = parentPort!;
/** Audio between partial hypotheses: frequent enough for live captions, rare enough to cost little. */
const PARTIAL_EVERY_SAMPLES = 16000 * 0.5;
/** Wall time between partial hypotheses: captions need a few a second, not one per half-second of a burst. */
const PARTIAL_MIN_INTERVAL_MS = 300;
/**
 * A partial is for a reader watching the visit; when this thread is this far behind the audio, the caption
 * would be stale on arrival and its cost (a backtrace of the utterance so far) only delays the next one.
 */
const PARTIAL_MAX_BEHIND_MS = 300;

/**
 * The library adapts its channel normalisation per call of ps_process_raw, so results would depend on how
 * callers happened to split their writes; feeding fixed blocks from the utterance start removes that.
 */
const BLOCK = 1600;

const idle: PocketSphinxDecoder[] = [];
interface Stream {
  dec: PocketSphinxDecoder;
  utt: number;
  sinceHyp: number;
  lastHyp: string;
  pending: Int16Array;
  replay: boolean;
  final: boolean;
  everyPartial: boolean;
  lastHypAt: number;
}
const streams = new Map<number, Stream>();

function feed(s: Stream, samples: Int16Array, final: boolean): void {
  let buf = samples;
  if (s.pending.length) {
    buf = new Int16Array(s.pending.length + samples.length);
    buf.set(s.pending);
    buf.set(samples, s.pending.length);
  }
  let o = 0;
  timeStageCpu(s.final ? 'final_decode' : 'live_decode', () => {
    for (; o + BLOCK <= buf.length; o += BLOCK) s.dec.process(buf.subarray(o, o + BLOCK));
    if (final && o < buf.length) {
      s.dec.process(buf.subarray(o));
      o = buf.length;
    }
  });
  s.pending = buf.slice(o);
}

/** Whether this audio message should be followed by a partial hypothesis. */
function partialDue(s: Stream, m: Extract<ToWorker, { t: 'audio' }>): boolean {
  if (s.final || s.replay || s.sinceHyp < PARTIAL_EVERY_SAMPLES) return false;
  if (s.everyPartial) return true;
  const now = Date.now();
  if (m.lagging || (m.sentAt !== undefined && now - m.sentAt > PARTIAL_MAX_BEHIND_MS)) {
    // Skipped, not postponed: the next one is due after another stretch of audio heard in time.
    s.sinceHyp = 0;
    return false;
  }
  return now - s.lastHypAt >= PARTIAL_MIN_INTERVAL_MS;
}

let trimScheduled = false;
/** Once per burst of closes: malloc_trim walks the whole arena, and 300 streams may end together. */
function scheduleTrim(): void {
  if (trimScheduled) return;
  trimScheduled = true;
  setImmediate(() => {
    trimScheduled = false;
    returnFreedMemory();
  });
}

function decoder(): PocketSphinxDecoder {
  return idle.pop() ?? timeStageCpu('decoder_init', () => new PocketSphinxDecoder(model));
}

const t0 = Date.now();
idle.push(timeStageCpu('decoder_init', () => new PocketSphinxDecoder(model)));
port.postMessage({ t: 'ready', initMs: Date.now() - t0 } satisfies FromWorker);

port.on('message', (m: ToWorker) => {
  try {
    handle(m);
  } catch (e) {
    port.postMessage({ t: 'error', id: m.id, message: (e as Error).message } satisfies FromWorker);
  }
});

let shuttingDown = false;

function handle(m: ToWorker): void {
  if (shuttingDown) return;
  if (m.t === 'shutdown') {
    // Ended from inside, between two library calls: terminate() from outside may land in the middle of one (a
    // decoder being built or fed), and a process exiting then was seen to die by a signal (CI, 7 Dec).
    shuttingDown = true;
    for (const st of streams.values()) st.dec.free();
    for (const d of idle) d.free();
    streams.clear();
    idle.length = 0;
    // In a worker thread this ends the thread, not the process.
    process.exit(0);
  }
  if (m.t === 'open') {
    // Released before its thread got to it: no decoder to build.
    if (Atomics.load(cancelled, m.id % CANCEL_SLOTS) === m.id) return;
    let dec: PocketSphinxDecoder | null = null;
    if (m.bias) {
      // A biased stream gets a decoder of its own, built with the session's words (see ffi.ts).
      try {
        dec = timeStageCpu('decoder_init', () => new PocketSphinxDecoder(model, m.bias));
      } catch (e) {
        // The session's vocabulary is an aid: without it the stream still decodes with the base model, and
        // says so before any of its results (the owner logs it and marks the transcript).
        port.postMessage({ t: 'unbiased', id: m.id, message: (e as Error).message } satisfies FromWorker);
      }
    }
    dec ??= decoder();
    dec.startStream();
    streams.set(m.id, { dec, utt: -1, sinceHyp: 0, lastHyp: '', pending: new Int16Array(0), replay: false, final: !!m.final, everyPartial: m.partials === 'every', lastHypAt: 0 });
    return;
  }
  const s = streams.get(m.id);
  if (!s) return;
  if (m.t !== 'close' && m.t !== 'flush' && Atomics.load(cancelled, m.id % CANCEL_SLOTS) === m.id) return;
  switch (m.t) {
    case 'start':
      s.dec.end();
      s.utt = m.utt;
      s.sinceHyp = 0;
      s.lastHyp = '';
      s.pending = new Int16Array(0);
      if (!!m.replay !== s.replay) s.dec.replaying(!!m.replay);
      s.replay = !!m.replay;
      s.dec.start();
      break;
    case 'audio': {
      if (m.utt !== s.utt) return;
      feed(s, m.samples, false);
      s.sinceHyp += m.samples.length;
      if (partialDue(s, m)) {
        s.sinceHyp = 0;
        s.lastHypAt = Date.now();
        const words = timeStageCpu('live_partial', () => s.dec.words());
        const text = words.map((w) => w.word).join(' ');
        if (text && text !== s.lastHyp) {
          s.lastHyp = text;
          port.postMessage({ t: 'partial', id: m.id, utt: s.utt, words } satisfies FromWorker);
        }
      }
      break;
    }
    case 'endUtt':
      if (m.utt !== s.utt) return;
      feed(s, new Int16Array(0), true);
      {
        const words = timeStageCpu(s.final ? 'final_decode' : 'live_decode', () => s.dec.end());
        port.postMessage({ t: 'final', id: m.id, utt: s.utt, words: s.replay ? [] : words } satisfies FromWorker);
      }
      s.utt = -1;
      break;
    case 'flush':
      port.postMessage({ t: 'flushed', id: m.id } satisfies FromWorker);
      break;
    case 'close':
      // A used decoder keeps noise and channel estimates that ps_start_stream does not clear, which
      // would make one visit's transcript depend on the previous one; it is replaced by a fresh one.
      streams.delete(m.id);
      s.dec.free();
      scheduleTrim();
      if (idle.length === 0) setImmediate(() => !shuttingDown && idle.length === 0 && idle.push(timeStageCpu('decoder_init', () => new PocketSphinxDecoder(model))));
      break;
  }
}
