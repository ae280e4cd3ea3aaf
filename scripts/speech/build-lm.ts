/**
 * Builds the embedded engine's language models and dictionaries into server/engines/speech/model/:
 *   lean.lm.bin      one trigram model merged offline from the clinical mixture below and
 *                    Debian's general-English en-us model (read from its trie file, lm/trie.ts), with
 *                    stock weight --stock-weight and only the en-us n-grams over the vocabulary that are
 *                    most probable (--stock-bigrams, --stock-trigrams): one model, one small vocabulary,
 *                    no run-time interpolation
 *   lean.dict        exactly the lean model's vocabulary (CMUdict, espeak-ng letter-to-sound for the rest);
 *                    a session's own words are added per decoder (ffi.ts)
 *   clinical.lm.bin  trigram mixture (ACI-BENCH train dialogues, train notes, RxNorm ingredient names,
 *                    general-English unigrams from Debian's en-us model), mixture weights fitted by EM on
 *                    held-out train dialogues; with interpolation.json the previous default
 *                    (SPEECH_LM=clinical: interpolated with en-us at decode time)
 *   clinical.dict    CMUdict pronunciations, espeak-ng letter-to-sound for words CMUdict lacks
 *   default.json     which of the two the engine uses without SPEECH_LM (--default; lean only once the held-out
 *                    fold shows it no worse than stock on every voice set)
 *   build-info.json  inputs' hashes, weights, sizes, perplexities
 * Every model is built WITHOUT the held-out fold of train (encounters i % 5 == 4, as bench/notes/folds.ts),
 * on which bench:speech -- --split train chooses the stock weight and pruning; valid is never used to choose.
 * Usage: npm run speech:build-lm [-- --data ../shared/data --out DIR --lean-stock-weight 0.5 --stock-bigrams N --stock-trigrams N --default lean|clinical]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLINICAL_MODEL_DIR } from '../../server/engines/speech/embedded.js';
import { STOCK_MODEL_DIR } from '../../server/engines/speech/pocketsphinx/ffi.js';
import { espeakPronounce } from '../../server/engines/speech/lm/g2p.js';
import { normalizeSentences } from '../../server/engines/speech/lm/normalize.js';
import { BOS, EOS, Mixture, Unigram, WittenBellTrigram, fitWeights, perplexity, writeArpa } from '../../server/engines/speech/lm/ngram.js';
import { BackoffScorer, prunedNgrams } from '../../server/engines/speech/lm/merge.js';
import { readTrieLm } from '../../server/engines/speech/lm/trie.js';
import { isHeldOut } from '../../bench/notes/folds.js';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
};
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const dataDir = path.resolve(root, opt('data', '../shared/data'));
const outDir = path.resolve(opt('out', CLINICAL_MODEL_DIR));
const GENERAL_WORDS = Number(opt('general-words', '12000'));
const DRUGS = Number(opt('drugs', '2000'));
// Weight of the stock model in the decode-time interpolation of the previous default (SPEECH_LM=clinical).
const STOCK_WEIGHT = '0.5';
// The lean model: en-us's share and how many of its own n-grams it keeps, chosen by bench:speech on the
// held-out fold of train (bench/speech/RESULTS.md).
const LEAN_STOCK_WEIGHT = Number(opt('lean-stock-weight', '0.6'));
const STOCK_BIGRAMS = Number(opt('stock-bigrams', '600000'));
const STOCK_TRIGRAMS = Number(opt('stock-trigrams', '400000'));
// General-English words the lean model adds to the clinical vocabulary (most frequent first).
const LEAN_GENERAL_WORDS = Number(opt('lean-general-words', '20000'));

const aciTrain = path.join(dataDir, 'aci-bench/train.jsonl');
const aciValid = path.join(dataDir, 'aci-bench/valid.jsonl');
const rxnorm = path.join(dataDir, 'codesets/rxnorm_rxnav_in_pin_min_scd.csv');
for (const f of [aciTrain, rxnorm]) {
  if (!fs.existsSync(f)) {
    console.error(`missing ${f}: the build reads ACI-BENCH and RxNorm from the shared data folder (--data DIR)`);
    process.exit(1);
  }
}
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const log = (...m: unknown[]) => console.log('[speech:build-lm]', ...m);

interface Encounter {
  encounter_id: string;
  dialogue: string;
  note: string;
}
const readJsonl = (f: string) => fs.readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Encounter);
// The held-out fold stays out of every model: it is what the stock weight and pruning are chosen on.
const train = readJsonl(aciTrain).filter((_, i) => !isHeldOut(i));

// --- pronunciations -------------------------------------------------------------------------------
const cmu = new Map<string, string[]>();
for (const line of fs.readFileSync(path.join(STOCK_MODEL_DIR, 'cmudict-en-us.dict'), 'utf8').split('\n')) {
  const m = /^(\S+?)(\(\d+\))?\s+(.+)$/.exec(line.trim());
  if (!m) continue;
  const list = cmu.get(m[1]!) ?? [];
  list.push(m[3]!.trim());
  cmu.set(m[1]!, list);
}
// Conversational tokens ACI-BENCH writes that CMUdict spells differently or lacks.
const MANUAL: Record<string, string[]> = {
  'mm-hmm': ['M HH M', 'AH M HH AH M'],
  'uh-huh': ['AH HH AH'],
  'mm': ['M'],
  'hmm': ['HH M'],
  'um': ['AH M'],
  'uh': ['AH'],
};

// --- general English unigrams (Debian's en-us model) ----------------------------------------------
function generalUnigrams(): Map<string, number> {
  const tmp = path.join(os.tmpdir(), `en-us-${process.pid}.arpa`);
  // sphinx_lm_convert writes the unigram section and then aborts on this trie model's higher orders;
  // only the unigrams are wanted, so its exit status is not checked.
  spawnSync('sphinx_lm_convert', ['-i', path.join(STOCK_MODEL_DIR, 'en-us.lm.bin'), '-o', tmp, '-ofmt', 'arpa'], { stdio: 'ignore' });
  const out = new Map<string, number>();
  if (!fs.existsSync(tmp)) {
    log('sphinx_lm_convert unavailable (apt-get install sphinxbase-utils): no general-English unigrams');
    return out;
  }
  const text = fs.readFileSync(tmp, 'utf8');
  fs.rmSync(tmp, { force: true });
  const start = text.indexOf('\\1-grams:');
  for (const line of text.slice(start).split('\n').slice(1)) {
    if (line.startsWith('\\')) break;
    const [lp, w] = line.split(/\s+/);
    if (w && /^[a-z][a-z']*$/.test(w) && cmu.has(w)) out.set(w, 10 ** Number(lp));
  }
  return new Map([...out.entries()].sort((a, b) => b[1] - a[1]));
}

// --- RxNorm ingredient names ------------------------------------------------------------------------
function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') q = false;
      else cur += c;
    } else if (c === '"') q = true;
    else if (c === ',') out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out;
}
function drugNames(): Map<string, number> {
  const rows = fs.readFileSync(rxnorm, 'utf8').split('\n').slice(1).filter(Boolean).map(parseCsvLine);
  const ingredients = new Set(rows.filter((r) => r[2] === 'IN').map((r) => r[1]!.toLowerCase()).filter((n) => /^[a-z]{4,20}$/.test(n)));
  // Ingredients in many marketed clinical drugs (SCD) are the ones clinicians say.
  const uses = new Map<string, number>();
  for (const r of rows) {
    if (r[2] !== 'SCD') continue;
    for (const tok of new Set(r[1]!.toLowerCase().split(/[^a-z]+/))) if (ingredients.has(tok)) uses.set(tok, (uses.get(tok) ?? 0) + 1);
  }
  return new Map([...uses.entries()].sort((a, b) => b[1] - a[1]).slice(0, DRUGS));
}

// --- build ------------------------------------------------------------------------------------------
const t0 = Date.now();
const dialogues = (es: Encounter[]) => es.flatMap((e) => normalizeSentences(e.dialogue));
const notes = (es: Encounter[]) => es.flatMap((e) => normalizeSentences(e.note));
// Held-out fold for fitting the mixture weights: every fifth train encounter.
const fit = train.filter((_, i) => i % 5 !== 0);
const held = train.filter((_, i) => i % 5 === 0);

const generalAll = generalUnigrams();
const general = new Map([...generalAll].slice(0, GENERAL_WORDS));
const drugs = drugNames();
log(`train encounters ${train.length} without the held-out fold (weights fitted on ${held.length} held out), general words ${general.size}, drug names ${drugs.size}`);

const count = (ss: string[][]) => {
  const m = new Map<string, number>();
  for (const s of ss) for (const w of s) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
};
const dCounts = count(dialogues(train));
const nCounts = count(notes(train));
const candidates = new Set<string>([...dCounts.keys(), ...[...nCounts].filter(([, c]) => c >= 2).map(([w]) => w), ...drugs.keys(), ...general.keys()]);

const missing = [...candidates].filter((w) => !cmu.has(w) && !MANUAL[w]);
log(`vocabulary candidates ${candidates.size}, ${missing.length} need letter-to-sound (espeak-ng)`);
const g2p = espeakPronounce(missing);
const prons = new Map<string, string[]>();
for (const w of candidates) {
  const p = MANUAL[w] ?? cmu.get(w) ?? (g2p.has(w) ? [g2p.get(w)!.join(' ')] : null);
  if (p) prons.set(w, p);
}
const vocab = [...prons.keys()].sort();
const inVocab = (w: string) => prons.has(w);
const V = vocab.length + 1; // + </s>

const components = (es: Encounter[]) => [
  new WittenBellTrigram(dialogues(es), V, inVocab),
  new WittenBellTrigram(notes(es), V, inVocab),
  new Unigram(general.size ? general : new Map([['the', 1]])),
  new Unigram(drugs),
  // A uniform floor so every vocabulary word keeps some probability whatever the weights.
  new Unigram(new Map([...vocab, EOS].map((w) => [w, 1]))),
];
const names = ['dialogues', 'notes', 'general', 'drugs', 'uniform'];
const fitParts = components(fit);
const weights = fitWeights(fitParts, dialogues(held), inVocab);
const heldPpl = perplexity(new Mixture(fitParts, weights), dialogues(held), inVocab);
const dialogueOnlyPpl = perplexity(fitParts[0]!, dialogues(held), inVocab);
log('mixture weights', Object.fromEntries(names.map((n, i) => [n, Number(weights[i]!.toFixed(4))])));
log(`held-out train perplexity ${heldPpl.ppl.toFixed(1)} (dialogue model alone ${dialogueOnlyPpl.ppl.toFixed(1)}), OOV ${heldPpl.oov}/${heldPpl.tokens}`);

const parts = components(train);
const model = new Mixture(parts, weights);
let validPpl: ReturnType<typeof perplexity> | null = null;
if (fs.existsSync(aciValid)) validPpl = perplexity(model, dialogues(readJsonl(aciValid)), inVocab);
if (validPpl) log(`valid perplexity ${validPpl.ppl.toFixed(1)}, OOV ${validPpl.oov}/${validPpl.tokens} (reported only, not used for fitting)`);

fs.mkdirSync(outDir, { recursive: true });
/** ARPA text to a sphinx binary model in outDir (name.lm.bin), or the ARPA file itself without sphinxbase-utils. */
function writeLm(name: string, arpa: string): void {
  const arpaPath = path.join(os.tmpdir(), `${name}-${process.pid}.lm`);
  fs.writeFileSync(arpaPath, arpa);
  const binPath = path.join(outDir, `${name}.lm.bin`);
  const conv = spawnSync('sphinx_lm_convert', ['-i', arpaPath, '-o', binPath], { stdio: 'ignore' });
  if (conv.status !== 0 || !fs.existsSync(binPath)) {
    // The ARPA text loads more slowly but decodes the same.
    fs.rmSync(binPath, { force: true });
    fs.copyFileSync(arpaPath, path.join(outDir, `${name}.lm`));
    log(`sphinx_lm_convert failed: wrote ARPA ${name}.lm instead of ${name}.lm.bin`);
  } else fs.rmSync(path.join(outDir, `${name}.lm`), { force: true });
  fs.rmSync(arpaPath, { force: true });
}
const writeDict = (name: string, words: string[]) => {
  const lines: string[] = [];
  for (const w of words) prons.get(w)!.forEach((p, i) => lines.push(`${i ? `${w}(${i + 1})` : w} ${p}`));
  fs.writeFileSync(path.join(outDir, `${name}.dict`), `${lines.join('\n')}\n`);
};
writeLm('clinical', writeArpa(model, parts.slice(0, 2) as WittenBellTrigram[], [BOS, ...vocab]));
writeDict('clinical', vocab);

// --- the lean model: clinical mixture and en-us merged offline ---------------------------------------
const tStock = Date.now();
const stockTrie = readTrieLm(path.join(STOCK_MODEL_DIR, 'en-us.lm.bin'));
const stock = new BackoffScorer(stockTrie);
// The clinical vocabulary plus en-us's most frequent words (with CMUdict pronunciations).
for (const w of [...generalAll.keys()].slice(0, LEAN_GENERAL_WORDS)) if (!prons.has(w)) prons.set(w, cmu.get(w)!);
const leanVocab = [...prons.keys()].sort();
const inLean = (w: string) => w === BOS || w === EOS || prons.has(w);
const pruned = prunedNgrams(stockTrie, inLean, STOCK_BIGRAMS, STOCK_TRIGRAMS);
const lean = new Mixture([model, stock], [1 - LEAN_STOCK_WEIGHT, LEAN_STOCK_WEIGHT]);
const heldFold = readJsonl(aciTrain).filter((_, i) => isHeldOut(i));
const leanPpl = perplexity(lean, dialogues(heldFold), inLean);
log(`lean model: vocabulary ${leanVocab.length}, en-us weight ${LEAN_STOCK_WEIGHT}, en-us n-grams kept ${pruned.bigrams.length} bigrams / ${pruned.trigrams.length} trigrams (read in ${((Date.now() - tStock) / 1000).toFixed(0)} s); held-out fold perplexity ${leanPpl.ppl.toFixed(1)}, OOV ${leanPpl.oov}/${leanPpl.tokens}`);
writeLm('lean', writeArpa(lean, parts.slice(0, 2) as WittenBellTrigram[], [BOS, ...leanVocab], pruned));
writeDict('lean', leanVocab);

// Chosen on synthesised TRAIN dialogues (bench/speech/tune.ts) and the held-out fold of train (issue 30;
// bench/speech/RESULTS.md, "Search settings"): the library's default language weights did best.
const decoder = {
  '-lw': opt('lw', '6.5'),
  '-wip': opt('wip', '0.65'),
  // The library's own beams: the wider ones chosen before the HMM cap (1e-60 / 1e-40 / 1e-60) bought no
  // accuracy under it on the held-out fold and cost about 15 % more decoder CPU.
  '-beam': opt('beam', '1e-48'),
  '-wbeam': opt('wbeam', '7e-29'),
  '-pbeam': opt('pbeam', '1e-48'),
  // At most 1750 active HMMs a frame (the library's 30000 never binds). 2000 cost 0.40-0.55 of the uncapped
  // decoder's CPU; 1750 costs 0.82 of 2000's on espeak's voices, where the cap binds most, and the same on
  // Festival's, with the same words on the held-out fold but one of Festival. 1600 and 1500 lose a word of real speech.
  '-maxhmmpf': opt('maxhmmpf', '1750'),
  // Three Gaussians a senone instead of four and a 10-frame phone lookahead: no measurable CPU either way,
  // but under these beams they take real read speech from 37.4 to 36.3 % and Flite from 20.9 to 19.4 %.
  '-topn': opt('topn', '3'),
  '-pl_window': opt('pl-window', '10'),
};
fs.writeFileSync(path.join(outDir, 'decoder.json'), `${JSON.stringify(decoder, null, 2)}\n`);
const interpolation = { stock: Number(opt('stock-weight', STOCK_WEIGHT)), bias: Number(opt('bias-weight', '0.05')) };
fs.writeFileSync(path.join(outDir, 'interpolation.json'), `${JSON.stringify(interpolation, null, 2)}\n`);
// Which model the engine uses without SPEECH_LM: lean only once bench:speech -- --split train shows it no worse
// than stock on every voice set of the held-out fold (embedded-models.ts defaultLm()).
fs.writeFileSync(path.join(outDir, 'default.json'), `${JSON.stringify({ lm: opt('default', 'lean') }, null, 2)}\n`);
const info = {
  inputs: {
    'aci-bench/train.jsonl': sha(aciTrain),
    'codesets/rxnorm_rxnav_in_pin_min_scd.csv': sha(rxnorm),
    'pocketsphinx-en-us cmudict-en-us.dict': sha(path.join(STOCK_MODEL_DIR, 'cmudict-en-us.dict')),
    'pocketsphinx-en-us en-us.lm.bin': sha(path.join(STOCK_MODEL_DIR, 'en-us.lm.bin')),
    espeak: execFileSync('espeak-ng', ['--version'], { encoding: 'utf8' }).trim(),
  },
  vocabulary: vocab.length,
  letterToSound: [...g2p.keys()].length,
  weights: Object.fromEntries(names.map((n, i) => [n, Number(weights[i]!.toFixed(6))])),
  perplexity: {
    heldOutTrain: Number(heldPpl.ppl.toFixed(2)),
    heldOutTrainDialogueModelOnly: Number(dialogueOnlyPpl.ppl.toFixed(2)),
    ...(validPpl ? { valid: Number(validPpl.ppl.toFixed(2)), validOovRate: Number((validPpl.oov / validPpl.tokens).toFixed(4)) } : {}),
  },
  decoder,
  interpolation,
  lean: {
    vocabulary: leanVocab.length,
    stockWeight: LEAN_STOCK_WEIGHT,
    stockBigrams: pruned.bigrams.length,
    stockTrigrams: pruned.trigrams.length,
    heldOutFoldPerplexity: Number(leanPpl.ppl.toFixed(2)),
    heldOutFoldOovRate: Number((leanPpl.oov / leanPpl.tokens).toFixed(4)),
  },
};
fs.writeFileSync(path.join(outDir, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
const size = fs.readdirSync(outDir).reduce((a, f) => a + fs.statSync(path.join(outDir, f)).size, 0);
log(`wrote ${outDir} (${(size / 1e6).toFixed(1)} MB) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
