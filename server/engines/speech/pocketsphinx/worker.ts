/**
 * Decoder worker thread: owns pocketsphinx decoders and runs them off the event loop. Each stream is
 * pinned to one worker because a decoder holds the state of the utterance in progress.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PocketSphinxDecoder, type DecoderModel, type RawWord } from './ffi.js';

export type ToWorker =
  | { t: 'open'; id: number }
  | { t: 'start'; id: number; utt: number }
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

const idle: PocketSphinxDecoder[] = [];
const streams = new Map<number, { dec: PocketSphinxDecoder; utt: number; sinceHyp: number; lastHyp: string }>();

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
    const dec = decoder();
    dec.startStream();
    streams.set(m.id, { dec, utt: -1, sinceHyp: 0, lastHyp: '' });
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
      s.dec.start();
      break;
    case 'audio': {
      if (m.utt !== s.utt) return;
      s.dec.process(m.samples);
      s.sinceHyp += m.samples.length;
      if (s.sinceHyp >= PARTIAL_EVERY_SAMPLES) {
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
      port.postMessage({ t: 'final', id: m.id, utt: s.utt, words: s.dec.end() } satisfies FromWorker);
      s.utt = -1;
      break;
    case 'flush':
      port.postMessage({ t: 'flushed', id: m.id } satisfies FromWorker);
      break;
    case 'close':
      s.dec.end();
      streams.delete(m.id);
      idle.push(s.dec);
      break;
  }
}
