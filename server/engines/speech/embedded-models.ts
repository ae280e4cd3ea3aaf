/**
 * The embedded engine's model files (model/, built by `npm run speech:build-lm`) and which one a setting
 * selects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stockModel, type DecoderModel } from './pocketsphinx/ffi.js';

export const CLINICAL_MODEL_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'model');

/**
 * How the clinical model is combined (model/interpolation.json, tuned on train dialogues only): the weight
 * of Debian's general-English en-us model interpolated with it, so general speech keeps the library's
 * coverage, and the weight of a session's own vocabulary when the session has context.
 */
export interface Interpolation {
  stock: number;
  bias: number;
}

export function readInterpolation(dir = CLINICAL_MODEL_DIR): Interpolation | null {
  const f = path.join(dir, 'interpolation.json');
  return fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as Interpolation) : null;
}

/**
 * The clinical model's files and the decoder settings the build tuned for it, interpolated with the stock
 * en-us model when model/interpolation.json says so (`interpolate: false` gives the clinical model alone,
 * for comparison), or null when not built.
 */
export function clinicalModel(dir = CLINICAL_MODEL_DIR, opts: { interpolate?: boolean; stockWeight?: number } = {}): DecoderModel | null {
  const dict = path.join(dir, 'clinical.dict');
  const lm = ['clinical.lm.bin', 'clinical.lm'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!lm || !fs.existsSync(dict)) return null;
  const settingsFile = path.join(dir, 'decoder.json');
  const args = fs.existsSync(settingsFile) ? (JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, string>) : {};
  const stockWeight = opts.stockWeight ?? (opts.interpolate === false ? 0 : (readInterpolation(dir)?.stock ?? 0));
  if (!(stockWeight > 0)) return { hmm: stockModel().hmm, lm, dict, args };
  const stock = stockModel();
  return { hmm: stock.hmm, lm, dict: stock.dict, extraDicts: [dict], args, mix: { lms: [stock.lm], weights: [1 - stockWeight, stockWeight] } };
}

/**
 * The lean model (model/lean.lm.bin): clinical and general English merged offline into one trigram model
 * whose dictionary is its own ~23k-word vocabulary, not CMUdict's 133k (scripts/speech/build-lm.ts), so
 * a decoder holds one small search instead of an interpolated set over 75k words. Null when not built.
 */
export function leanModel(dir = CLINICAL_MODEL_DIR): DecoderModel | null {
  const dict = path.join(dir, 'lean.dict');
  const lm = ['lean.lm.bin', 'lean.lm'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!lm || !fs.existsSync(dict)) return null;
  const settingsFile = path.join(dir, 'decoder.json');
  const args = fs.existsSync(settingsFile) ? (JSON.parse(fs.readFileSync(settingsFile, 'utf8')) as Record<string, string>) : {};
  return { hmm: stockModel().hmm, lm, dict, args };
}

/** Which language model: `lean` (merged offline, the default, model/default.json), `clinical` (interpolated at decode time, costlier) or `stock`. */
export type EmbeddedLm = 'lean' | 'clinical' | 'stock';

/**
 * The model used when SPEECH_LM is not set (model/default.json, written by build-lm's --default): the lean
 * model, since the held-out fold showed it no worse than stock on every voice set and cheaper than the
 * interpolated one (bench/speech/RESULTS.md); without the file, clinical.
 */
export function defaultLm(dir = CLINICAL_MODEL_DIR): Exclude<EmbeddedLm, 'stock'> {
  const f = path.join(dir, 'default.json');
  const lm = fs.existsSync(f) ? (JSON.parse(fs.readFileSync(f, 'utf8')) as { lm?: string }).lm : undefined;
  return lm === 'lean' ? 'lean' : 'clinical';
}

export function resolveModel(opts: { lm?: EmbeddedLm; model?: DecoderModel }): DecoderModel {
  if (opts.model) return opts.model;
  if (opts.lm === 'stock') return stockModel();
  const lm = opts.lm ?? defaultLm();
  const built = lm === 'clinical' ? (clinicalModel() ?? leanModel()) : (leanModel() ?? clinicalModel());
  if (built) return built;
  if (opts.lm) throw new Error(`${opts.lm} speech model not built: run npm run speech:build-lm`);
  return stockModel();
}

