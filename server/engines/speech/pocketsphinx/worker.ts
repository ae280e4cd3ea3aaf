/**
 * Decoder worker thread: owns pocketsphinx decoders and runs them off the event loop. Each stream is
 * pinned to one worker because a decoder holds the state of the utterance in progress.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PocketSphinxDecoder, type DecoderBias, type DecoderModel, type RawWord } from './ffi.js';
import { returnFreedMemory } from './heap.js';

export type ToWorker =
  | { t: 'open'; id: number; bias?: DecoderBias }
  /** `replay`: the utterance's words are known already; it is decoded only for the state it leaves (ffi.ts replaying()). */
  | { t: 'start'; id: number; utt: number; replay?: boolean }
  | { t: 'audio'; id: number; utt: number; samples: Int16Array }
  | { t: 'endUtt'; id: number; utt: number }
  | { t: 'flush'; id: number }
  | { t: 'close'; id: number };

export type FromWorker =
  | { t: 'ready'; initMs: number }
  | { t: 'partial'; id: number; utt: number; words: RawWord[] }
  | { t: 'final'; id: number; utt: number; words: RawWord[] }
  | { t: 'flushed'; id: number }
  | { t: 'error'; id: number; message: string };

const model = (workerData as { model: DecoderModel }).model;
const port = parentPort!;
/** Audio between partial hypotheses: frequent enough for live captions, rare enough to cost little. */
const PARTIAL_EVERY_SAMPLES = 16000 * 0.5;

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
  for (; o + BLOCK <= buf.length; o += BLOCK) s.dec.process(buf.subarray(o, o + BLOCK));
  if (final && o < buf.length) {
    s.dec.process(buf.subarray(o));
    o = buf.length;
  }
  s.pending = buf.slice(o);
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
  return idle.pop() ?? new PocketSphinxDecoder(model);
}

const t0 = Date.now();
idle.push(new PocketSphinxDecoder(model));
port.postMessage({ t: 'ready', initMs: Date.now() - t0 } satisfies FromWorker);

port.on('message', (m: ToWorker) => {
  try {
    handle(m);
  } catch (e) {
    port.postMessage({ t: 'error', id: m.id, message: (e as Error).message } satisfies FromWorker);
  }
});

function handle(m: ToWorker): void {
  if (m.t === 'open') {
    let dec: PocketSphinxDecoder | null = null;
    if (m.bias) {
      // A biased stream gets a decoder of its own, built with the session's words (see ffi.ts).
      try {
        dec = new PocketSphinxDecoder(model, m.bias);
      } catch {
        // The session's vocabulary is an aid: without it the stream still decodes with the base model.
      }
    }
    dec ??= decoder();
    dec.startStream();
    streams.set(m.id, { dec, utt: -1, sinceHyp: 0, lastHyp: '', pending: new Int16Array(0), replay: false });
    return;
  }
  const s = streams.get(m.id);
  if (!s) return;
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
      if (s.sinceHyp >= PARTIAL_EVERY_SAMPLES && !s.replay) {
        s.sinceHyp = 0;
        const words = s.dec.words();
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
        const words = s.dec.end();
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
      if (idle.length === 0) setImmediate(() => idle.length === 0 && idle.push(new PocketSphinxDecoder(model)));
      break;
  }
}
