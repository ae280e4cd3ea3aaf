import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { espeakPronounce } from '../lm/g2p.js';
import { loadLib } from './lib.js';


/**
 * The dictionary's spelling of a word as the transcript shows it: without its alternate-pronunciation suffix ("read(2)"),
 * and a plural possessive as the plural ("months'" of "come back in three months'"), which sounds the same and is what a
 * clinician says far more often.
 */
export const spelledWord = (w: string): string => w.replace(/\(\d+\)$/, '').replace(/(?<=s)'$/, '');

export const STOCK_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export interface DecoderModel {
  /** Acoustic model directory. */
  hmm: string;
  /** Language model file (ARPA or sphinx binary). */
  lm: string;
  dict: string;
  /** Extra decoder arguments, e.g. { '-lw': '8' }. */
  args?: Record<string, string>;
  /**
   * Further language models interpolated linearly with `lm` (pocketsphinx takes several LMs only as a
   * set): weights are for [lm, ...mix.lms] and sum to 1. Their words need pronunciations in dict or
   * extraDicts.
   */
  mix?: { lms: string[]; weights: number[] };
  /** Dictionaries whose words `dict` lacks are added to it (e.g. the clinical words CMUdict lacks). */
  extraDicts?: string[];
}

/**
 * A session's own vocabulary (DESIGN §12, issue 14): words from its context are given a unigram model of
 * their own, interpolated with weight `weight`, so the recogniser prefers them where the audio allows.
 * Words the dictionary lacks come with pronunciations (CMU phones).
 */
export interface DecoderBias {
  words: { word: string; phones?: string }[];
  weight: number;
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
  /** Milliseconds from the utterance start to the word's first frame, and to the end of its last. */
  startMs: number;
  endMs: number;
  /** Lattice posterior 0–1 of the word; only on a finished utterance (partials have no lattice). */
  confidence?: number;
}

/** A frame's length: 10 ms at the acoustic model's default of 100 frames a second, longer under `-frate`. */
export function frameMs(args: Record<string, string> | undefined): number {
  return 1000 / Number(args?.['-frate'] ?? 100);
}

const NON_WORDS = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/;

/** Language models are read once per thread and shared by its decoders (one thread runs one at a time). */
const lmCache = new Map<string, unknown>();
let sharedLogmath: unknown = null;
const NGRAM_AUTO = 0;

function sharedLm(file: string): unknown {
  const l = loadLib();
  // The decoder's default log base; every model in a set must share one log-math table.
  sharedLogmath ??= l.logmath_init(1.0001, 0, 0);
  let m = lmCache.get(file);
  if (!m) {
    m = l.ngram_model_read(null, file, NGRAM_AUTO, sharedLogmath);
    if (!m) throw new Error(`pocketsphinx could not read language model ${file}`);
    lmCache.set(file, m);
  }
  return m;
}

const dictCache = new Map<string, Map<string, string[]>>();
function readDict(file: string): Map<string, string[]> {
  const cached = dictCache.get(file);
  if (cached) return cached;
  const out = new Map<string, string[]>();
  dictCache.set(file, out);
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\S+?)(\(\d+\))?\s+(.+)$/.exec(line.trim());
    if (!m) continue;
    const list = out.get(m[1]!) ?? [];
    list.push(m[3]!.trim());
    out.set(m[1]!, list);
  }
  return out;
}

/** CMUdict's text, read once per thread when a session brings words a lean dictionary lacks. */
let cmuText: string | null = null;
/** CMUdict's first pronunciation of each of `words` it has. */
export function cmuPronounce(words: string[]): Map<string, string> {
  cmuText ??= `\n${fs.readFileSync(stockModel().dict, 'utf8')}`;
  const out = new Map<string, string>();
  for (const w of words) {
    const at = cmuText.indexOf(`\n${w} `);
    if (at < 0) continue;
    const end = cmuText.indexOf('\n', at + 1);
    out.set(w, cmuText.slice(at + w.length + 2, end < 0 ? undefined : end).trim());
  }
  return out;
}

const BIAS_NAME = 'session';
/**
 * A one-word grammar: a search that costs almost nothing per frame, for audio whose words are already known
 * (see replaying()).
 */
const REPLAY_NAME = 'replay';
const REPLAY_GRAMMAR = '#JSGF V1.0;\ngrammar replay;\npublic <s> = the;\n';

export class PocketSphinxDecoder {
  private ps: unknown;
  private inUtt = false;
  private readonly model: DecoderModel;
  private readonly frameMs: number;
  /** The language-model search, while utterances are replayed under the grammar. */
  private lmSearch: string | null = null;

  /**
   * With a bias the session's words are added to the dictionary before any search exists: adding a word
   * while a search is active also adds it to that search's language models, which are shared by the
   * thread's decoders and would carry one session's words into the next.
   */
  constructor(model: DecoderModel, bias?: DecoderBias) {
    const l = loadLib();
    for (const f of [model.hmm, model.lm, model.dict]) {
      if (!fs.existsSync(f)) throw new Error(`speech model file missing: ${f}`);
    }
    // Segmentation is ours (vad.ts); the library's own silence removal would renumber frames within an
    // utterance and shift word times.
    this.model = model;
    this.frameMs = frameMs(model.args);
    // The search is set up below, after the dictionary has all its words, with the thread's shared copy of
    // the language model (`-lm` would read one per decoder).
    const argv = ['-hmm', model.hmm, '-dict', model.dict, '-logfn', '/dev/null', '-remove_silence', 'no'];
    for (const [k, v] of Object.entries(model.args ?? {})) argv.push(k, v);
    const cfg = l.cmd_ln_parse_r(null, l.ps_args(), argv.length, argv, 1);
    if (!cfg) throw new Error('pocketsphinx rejected its configuration');
    this.ps = l.ps_init(cfg);
    l.cmd_ln_free_r(cfg);
    if (!this.ps) throw new Error('pocketsphinx decoder failed to initialise');
    for (const file of model.extraDicts ?? []) {
      for (const [w, prons] of readDict(file)) if (!l.ps_lookup_word(this.ps, w)) l.ps_add_word(this.ps, w, prons[0]!, 0);
    }
    const own = bias ? this.biasModel(bias) : null;
    const files = [model.lm, ...(model.mix?.lms ?? [])];
    const base = model.mix?.weights ?? [1];
    if (own) this.useSet(BIAS_NAME, files, [...base.map((w) => w * (1 - bias!.weight)), bias!.weight], own);
    else if (model.mix) this.useSet('mix', files, base, null);
    else this.useShared(model.lm);
  }

  /** One language model, the thread's shared copy, as the active search. */
  private useShared(file: string): void {
    const l = loadLib();
    const m = l.ngram_model_retain(sharedLm(file));
    l.ngram_model_apply_weights(m, Number(this.model.args?.['-lw'] ?? 6.5), Number(this.model.args?.['-wip'] ?? 0.65));
    const rv = l.ps_set_lm(this.ps, 'lm', m);
    // The search holds its own reference; the thread's cache keeps the model for the next decoder.
    l.ngram_model_free(m);
    if (rv < 0 || l.ps_set_search(this.ps, 'lm') < 0) throw new Error('pocketsphinx rejected the language model');
  }

  /** Builds an interpolated set of shared models (plus an owned one) and makes it the active search. */
  private useSet(name: string, files: string[], weights: number[], owned: unknown): void {
    const l = loadLib();
    // The set frees its members with it; shared ones are retained so that only the reference goes.
    const models = files.map((f) => l.ngram_model_retain(sharedLm(f)));
    if (owned) models.push(owned);
    // The search applies its language weight and insertion penalty to the set, which does not pass them
    // on to members it did not read itself; applied here, the members score as they would alone.
    const lw = Number(this.model.args?.['-lw'] ?? 6.5);
    const wip = Number(this.model.args?.['-wip'] ?? 0.65);
    for (const m of models) l.ngram_model_apply_weights(m, lw, wip);
    const names = models.map((_, i) => `lm${i}`);
    const set = l.ngram_model_set_init(null, models, names, Float32Array.from(weights), models.length);
    if (!set) throw new Error('pocketsphinx could not combine the language models');
    const rv = l.ps_set_lm(this.ps, name, set);
    l.ngram_model_free(set);
    if (rv < 0 || l.ps_set_search(this.ps, name) < 0) throw new Error('pocketsphinx rejected the language model set');
  }

  /**
   * A unigram model of the session's words (pronunciations added for those the dictionary lacks), to be
   * interpolated with the base model(s); null when none of the words can be used.
   */
  private biasModel(bias: DecoderBias): unknown {
    const l = loadLib();
    const words = [...new Set(bias.words.map((w) => w.word.toLowerCase()).filter((w) => /^[a-z][a-z'-]*$/.test(w)))];
    const phones = new Map(bias.words.map((w) => [w.word.toLowerCase(), w.phones]));
    let unknown = words.filter((w) => !phones.get(w) && !l.ps_lookup_word(this.ps, w));
    // A lean dictionary holds only the model's vocabulary: CMUdict still knows most session words.
    if (unknown.length && this.model.dict !== stockModel().dict) {
      for (const [w, p] of cmuPronounce(unknown)) phones.set(w, p);
      unknown = unknown.filter((w) => !phones.get(w));
    }
    if (unknown.length) {
      try {
        for (const [w, p] of espeakPronounce(unknown)) phones.set(w, p.join(' '));
      } catch {
        // Without espeak-ng the session's unknown words cannot be pronounced; the known ones still bias.
      }
    }
    const known = words.filter((w) => {
      if (l.ps_lookup_word(this.ps, w)) return true;
      const p = phones.get(w);
      return !!p && l.ps_add_word(this.ps, w, p, 0) >= 0;
    });
    if (!known.length || !(bias.weight > 0 && bias.weight < 1)) return null;
    const arpa = ['\\data\\', `ngram 1=${known.length + 2}`, '', '\\1-grams:', '-99\t<s>', `${Math.log10(0.5).toFixed(6)}\t</s>`];
    const p = Math.log10(0.5 / known.length).toFixed(6);
    for (const w of known) arpa.push(`${p}\t${w}`);
    arpa.push('', '\\end\\', '');
    const file = path.join(os.tmpdir(), `ps-bias-${process.pid}-${Math.random().toString(36).slice(2)}.lm`);
    fs.writeFileSync(file, arpa.join('\n'));
    let own: unknown;
    try {
      sharedLogmath ??= l.logmath_init(1.0001, 0, 0);
      own = l.ngram_model_read(null, file, NGRAM_AUTO, sharedLogmath);
    } finally {
      fs.rmSync(file, { force: true });
    }
    if (!own) throw new Error('pocketsphinx could not read the session vocabulary');
    return own;
  }

  /**
   * Forgets the channel estimates (cepstral mean) learnt from earlier audio, so a reused decoder treats a
   * new recording as new and gives the same result whichever stream used it before.
   */
  startStream(): void {
    this.end();
    if (loadLib().ps_start_stream(this.ps) < 0) throw new Error('ps_start_stream failed');
  }

  /**
   * Between utterances: with `on`, the next ones are decoded under a one-word grammar instead of the language
   * model. The features, channel and noise estimates a decoder carries from one utterance to the next come
   * from the audio alone, not from the search, so replaying utterances whose words a live pass already found
   * leaves the decoder in the state it would have had after decoding them (the words, frames and posteriors
   * of every later utterance are the same; live-equivalence.test.ts) at ~1/50 of the CPU.
   */
  replaying(on: boolean): void {
    if (this.inUtt) throw new Error('replaying() is set between utterances');
    const l = loadLib();
    if (on && this.lmSearch === null) {
      this.lmSearch = l.ps_get_search(this.ps);
      if (!this.lmSearch || l.ps_set_jsgf_string(this.ps, REPLAY_NAME, REPLAY_GRAMMAR) < 0) throw new Error('pocketsphinx rejected the replay grammar');
    }
    if (this.lmSearch === null) return;
    if (l.ps_set_search(this.ps, on ? REPLAY_NAME : this.lmSearch) < 0) throw new Error('pocketsphinx could not switch search');
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
        const word: RawWord = { word: spelledWord(w), startMs: (sf[0]! - base) * this.frameMs, endMs: (ef[0]! - base + 1) * this.frameMs };
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
