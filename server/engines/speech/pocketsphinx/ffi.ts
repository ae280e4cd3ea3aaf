import koffi from 'koffi';
import fs from 'node:fs';
import path from 'node:path';

/**
 * In-process binding to Debian's libpocketsphinx3 (5prealpha API). Loaded lazily so that importing the
 * speech module on a machine without the library does not fail until the embedded engine is used.
 */
interface Lib {
  ps_args: () => unknown;
  cmd_ln_parse_r: (inout: unknown, defn: unknown, argc: number, argv: string[], strict: number) => unknown;
  cmd_ln_free_r: (c: unknown) => number;
  ps_init: (c: unknown) => unknown;
  ps_free: (ps: unknown) => number;
  ps_start_stream: (ps: unknown) => number;
  ps_start_utt: (ps: unknown) => number;
  ps_process_raw: (ps: unknown, data: Int16Array, n: number, noSearch: number, fullUtt: number) => number;
  ps_end_utt: (ps: unknown) => number;
  ps_get_hyp: (ps: unknown, score: null) => string | null;
  ps_seg_iter: (ps: unknown) => unknown;
  ps_seg_next: (seg: unknown) => unknown;
  ps_seg_word: (seg: unknown) => string;
  ps_seg_frames: (seg: unknown, sf: number[], ef: number[]) => void;
  ps_seg_free: (seg: unknown) => void;
  ps_seg_prob: (seg: unknown, ascr: number[], lscr: number[], lback: number[]) => number;
  ps_get_logmath: (ps: unknown) => unknown;
  logmath_exp: (lmath: unknown, logb: number) => number;
  err_set_logfp: (fp: null) => void;
}

let lib: Lib | null = null;

function loadLib(): Lib {
  if (lib) return lib;
  let ps: ReturnType<typeof koffi.load>;
  let sb: ReturnType<typeof koffi.load>;
  try {
    sb = koffi.load('libsphinxbase.so.3');
    ps = koffi.load('libpocketsphinx.so.3');
  } catch (e) {
    throw new Error(
      `embedded speech engine needs Debian's libpocketsphinx3 (apt-get install pocketsphinx pocketsphinx-en-us): ${(e as Error).message}`,
    );
  }
  koffi.opaque('ps_decoder_t');
  koffi.opaque('cmd_ln_t');
  koffi.opaque('arg_t');
  koffi.opaque('ps_seg_t');
  koffi.opaque('FILE');
  koffi.opaque('logmath_t');
  lib = {
    ps_args: ps.func('const arg_t *ps_args(void)'),
    cmd_ln_parse_r: sb.func('cmd_ln_t *cmd_ln_parse_r(cmd_ln_t *inout, const arg_t *defn, int argc, const char **argv, int strict)'),
    cmd_ln_free_r: sb.func('int cmd_ln_free_r(cmd_ln_t *c)'),
    ps_init: ps.func('ps_decoder_t *ps_init(cmd_ln_t *config)'),
    ps_free: ps.func('int ps_free(ps_decoder_t *ps)'),
    ps_start_stream: ps.func('int ps_start_stream(ps_decoder_t *ps)'),
    ps_start_utt: ps.func('int ps_start_utt(ps_decoder_t *ps)'),
    ps_process_raw: ps.func('int ps_process_raw(ps_decoder_t *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    ps_end_utt: ps.func('int ps_end_utt(ps_decoder_t *ps)'),
    ps_get_hyp: ps.func('const char *ps_get_hyp(ps_decoder_t *ps, int *score)'),
    ps_seg_iter: ps.func('ps_seg_t *ps_seg_iter(ps_decoder_t *ps)'),
    ps_seg_next: ps.func('ps_seg_t *ps_seg_next(ps_seg_t *seg)'),
    ps_seg_word: ps.func('const char *ps_seg_word(ps_seg_t *seg)'),
    ps_seg_frames: ps.func('void ps_seg_frames(ps_seg_t *seg, _Out_ int *sf, _Out_ int *ef)'),
    ps_seg_free: ps.func('void ps_seg_free(ps_seg_t *seg)'),
    ps_seg_prob: ps.func('int32_t ps_seg_prob(ps_seg_t *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)'),
    ps_get_logmath: ps.func('logmath_t *ps_get_logmath(ps_decoder_t *ps)'),
    logmath_exp: sb.func('double logmath_exp(logmath_t *lmath, int logb_p)'),
    err_set_logfp: sb.func('void err_set_logfp(FILE *fp)'),
  };
  // The library logs every utterance to stderr by default; that would leak transcript text into logs.
  lib.err_set_logfp(null);
  return lib;
}

export const STOCK_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface DecoderModel {
  /** Acoustic model directory. */
  hmm: string;
  /** Language model file (ARPA or sphinx binary). */
  lm: string;
  dict: string;
  /** Extra decoder arguments, e.g. { '-lw': '8' }. */
  args?: Record<string, string>;
}

export function stockModel(): DecoderModel {
  return {
    hmm: path.join(STOCK_MODEL_DIR, 'en-us'),
    lm: path.join(STOCK_MODEL_DIR, 'en-us.lm.bin'),
    dict: path.join(STOCK_MODEL_DIR, 'cmudict-en-us.dict'),
  };
}

export interface RawWord {
  word: string;
  /** 10 ms frames relative to the utterance start. */
  startFrame: number;
  endFrame: number;
  /** Lattice posterior 0–1 of the word; only on a finished utterance (partials have no lattice). */
  confidence?: number;
}

/** Frames are 10 ms at the acoustic model's default frame rate of 100/s. */
export const FRAME_MS = 10;

const NON_WORDS = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/;

export class PocketSphinxDecoder {
  private ps: unknown;
  private inUtt = false;

  constructor(model: DecoderModel) {
    const l = loadLib();
    for (const f of [model.hmm, model.lm, model.dict]) {
      if (!fs.existsSync(f)) throw new Error(`speech model file missing: ${f}`);
    }
    // Segmentation is ours (vad.ts); the library's own silence removal would renumber frames within an
    // utterance and shift word times.
    const argv = ['-hmm', model.hmm, '-lm', model.lm, '-dict', model.dict, '-logfn', '/dev/null', '-remove_silence', 'no'];
    for (const [k, v] of Object.entries(model.args ?? {})) argv.push(k, v);
    const cfg = l.cmd_ln_parse_r(null, l.ps_args(), argv.length, argv, 1);
    if (!cfg) throw new Error('pocketsphinx rejected its configuration');
    this.ps = l.ps_init(cfg);
    l.cmd_ln_free_r(cfg);
    if (!this.ps) throw new Error('pocketsphinx decoder failed to initialise');
  }

  /**
   * Forgets the channel estimates (cepstral mean) learnt from earlier audio, so a reused decoder treats a
   * new recording as new and gives the same result whichever stream used it before.
   */
  startStream(): void {
    this.end();
    if (loadLib().ps_start_stream(this.ps) < 0) throw new Error('ps_start_stream failed');
  }

  start(): void {
    if (this.inUtt) return;
    if (loadLib().ps_start_utt(this.ps) < 0) throw new Error('ps_start_utt failed');
    this.inUtt = true;
  }

  process(samples: Int16Array): void {
    if (!this.inUtt) this.start();
    if (samples.length === 0) return;
    if (loadLib().ps_process_raw(this.ps, samples, samples.length, 0, 0) < 0) throw new Error('ps_process_raw failed');
  }

  /**
   * Current best hypothesis; valid mid-utterance (partial) and after end() (final). After end() the
   * library segments the best path through the word lattice and gives each word its posterior
   * (ps_seg_prob, in the decoder's log base), which becomes the word's confidence.
   */
  words(final = false): RawWord[] {
    const l = loadLib();
    const lmath = final ? l.ps_get_logmath(this.ps) : null;
    const out: RawWord[] = [];
    let seg = l.ps_seg_iter(this.ps);
    // This library version numbers frames from the decoder's creation, not the utterance's start; the
    // first segment (<s> or silence, always present) marks where the utterance begins.
    let base: number | null = null;
    while (seg) {
      const w = l.ps_seg_word(seg);
      const sf = [0];
      const ef = [0];
      l.ps_seg_frames(seg, sf, ef);
      base ??= sf[0]!;
      if (!NON_WORDS.test(w)) {
        const word: RawWord = { word: w.replace(/\(\d+\)$/, ''), startFrame: sf[0]! - base, endFrame: ef[0]! - base };
        if (lmath) {
          const p = l.logmath_exp(lmath, l.ps_seg_prob(seg, [0], [0], [0]));
          word.confidence = Number.isFinite(p) ? Math.round(Math.min(1, Math.max(0, p)) * 1000) / 1000 : 0;
        }
        out.push(word);
      }
      seg = l.ps_seg_next(seg);
    }
    return out;
  }

  end(): RawWord[] {
    if (this.inUtt) {
      loadLib().ps_end_utt(this.ps);
      this.inUtt = false;
    }
    return this.words(true);
  }

  free(): void {
    if (this.ps) loadLib().ps_free(this.ps);
    this.ps = null;
  }
}
