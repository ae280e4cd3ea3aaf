import koffi from 'koffi';

/**
 * In-process binding to Debian's libpocketsphinx3 (5prealpha API). Loaded lazily so that importing the
 * speech module on a machine without the library does not fail until the embedded engine is used.
 */
export interface Lib {
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
  logmath_init: (base: number, shift: number, useTable: number) => unknown;
  ngram_model_read: (config: null, file: string, type: number, lmath: unknown) => unknown;
  ngram_model_retain: (m: unknown) => unknown;
  ngram_model_free: (m: unknown) => number;
  ngram_model_set_init: (config: null, models: unknown[], names: string[], weights: Float32Array, n: number) => unknown;
  ngram_model_apply_weights: (m: unknown, lw: number, wip: number) => number;
  ps_set_lm: (ps: unknown, name: string, lm: unknown) => number;
  ps_set_search: (ps: unknown, name: string) => number;
  ps_get_search: (ps: unknown) => string | null;
  ps_set_jsgf_string: (ps: unknown, name: string, jsgf: string) => number;
  ps_add_word: (ps: unknown, word: string, phones: string, update: number) => number;
  ps_lookup_word: (ps: unknown, word: string) => string | null;
  err_set_logfp: (fp: null) => void;
}

let lib: Lib | null = null;

export function loadLib(): Lib {
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
  koffi.opaque('ngram_model_t');
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
    logmath_init: sb.func('logmath_t *logmath_init(double base, int shift, int use_table)'),
    ngram_model_read: sb.func('ngram_model_t *ngram_model_read(cmd_ln_t *config, const char *file, int type, logmath_t *lmath)'),
    ngram_model_retain: sb.func('ngram_model_t *ngram_model_retain(ngram_model_t *m)'),
    ngram_model_free: sb.func('int ngram_model_free(ngram_model_t *m)'),
    ngram_model_set_init: sb.func('ngram_model_t *ngram_model_set_init(cmd_ln_t *config, ngram_model_t **models, const char **names, const float *weights, int n)'),
    ngram_model_apply_weights: sb.func('int ngram_model_apply_weights(ngram_model_t *m, float lw, float wip)'),
    ps_set_lm: ps.func('int ps_set_lm(ps_decoder_t *ps, const char *name, ngram_model_t *lm)'),
    ps_set_search: ps.func('int ps_set_search(ps_decoder_t *ps, const char *name)'),
    ps_get_search: ps.func('const char *ps_get_search(ps_decoder_t *ps)'),
    ps_set_jsgf_string: ps.func('int ps_set_jsgf_string(ps_decoder_t *ps, const char *name, const char *jsgf)'),
    ps_add_word: ps.func('int ps_add_word(ps_decoder_t *ps, const char *word, const char *phones, int update)'),
    ps_lookup_word: ps.func('const char *ps_lookup_word(ps_decoder_t *ps, const char *word)'),
    err_set_logfp: sb.func('void err_set_logfp(FILE *fp)'),
  };
  // The library logs every utterance to stderr by default; that would leak transcript text into logs.
  lib.err_set_logfp(null);
  return lib;
}
