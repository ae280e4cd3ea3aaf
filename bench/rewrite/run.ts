/**
 * npm run bench:rewrite — issue 29 item 8: does a rewrite change the text usefully, and keep its facts?
 * Input: the ASSESSMENT AND PLAN section the embedded engine writes for each ACI-BENCH valid encounter (from the gold
 * dialogue; nothing here is tuned on valid). Printed per instruction:
 * - PATIENT_FRIENDLY: Flesch-Kincaid reading grade before → after (target: ≥ 3 grades lower), numbers and drugs kept;
 * - CONCISE: length before → after (target: ≥ 25 % shorter), numbers, drugs and negations kept;
 * - VERBOSE: abbreviations expanded (on the engine's text and on an abbreviated version of it), facts kept.
 * "Kept" means every number, every RxNorm drug ingredient and (CONCISE) every negation cue of the input is in the output.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { EmbeddedNotesEngine } from '../../server/engines/notes/embedded/index';
import { rewriteText } from '../../server/engines/notes/embedded/rewrite';
import { findDrugs } from '../../server/engines/notes/embedded/meds';
import { readingGrade } from '../../server/domain/visit-summary/reading-grade';
import { factsLost } from './facts';

const root = path.resolve(import.meta.dirname, '../..');
const rows = readFileSync(path.resolve(root, '../shared/data/aci-bench/valid.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string });
const engine = new EmbeddedNotesEngine();
const plans = rows.map((r) => ({
  id: r.encounter_id,
  text: engine.generateSync({ transcript: dialogueToTranscript(r.dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } }).summary.find((s) => s.loinc_code === '51847-2')?.content ?? '',
})).filter((p) => p.text.trim());

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(xs.length, 1);
const drugsOf = (t: string) => new Set(findDrugs(t).map((d) => d.ingredient));

function report(name: string, outs: Array<{ id: string; before: string; after: string }>, negations: boolean): string[] {
  const lost = outs.map((o) => ({ id: o.id, lost: factsLost(o.before, o.after, drugsOf, negations) })).filter((o) => o.lost.length);
  return [
    `  facts kept (numbers, drugs${negations ? ', negations' : ''}): ${outs.length - lost.length}/${outs.length} sections${lost.length ? `; lost: ${lost.slice(0, 5).map((o) => `${o.id} ${o.lost.join(', ')}`).join('; ')}` : ''}`,
    `  unchanged outputs: ${outs.filter((o) => o.after.trim() === o.before.trim()).length}/${outs.length} (${name})`,
  ];
}

const lines = [`ACI-BENCH valid, ${plans.length} ASSESSMENT AND PLAN sections written by the embedded engine (BALANCED)`];

const friendly = plans.map((p) => ({ id: p.id, before: p.text, after: rewriteText(p.text, 'PATIENT_FRIENDLY') }));
const g0 = mean(friendly.map((o) => readingGrade(o.before)));
const g1 = mean(friendly.map((o) => readingGrade(o.after)));
lines.push(`PATIENT_FRIENDLY: reading grade (Flesch-Kincaid) ${g0.toFixed(1)} → ${g1.toFixed(1)}, drop ${(g0 - g1).toFixed(1)} grades (target ≥ 3)`, ...report('PATIENT_FRIENDLY', friendly, false));

const concise = plans.map((p) => ({ id: p.id, before: p.text, after: rewriteText(p.text, 'CONCISE') }));
const c0 = concise.reduce((n, o) => n + o.before.length, 0);
const c1 = concise.reduce((n, o) => n + o.after.length, 0);
lines.push(`CONCISE: ${c0} → ${c1} characters, ${(100 * (1 - c1 / c0)).toFixed(1)} % shorter (target ≥ 25 %); per section mean ${(100 * mean(concise.map((o) => 1 - o.after.length / o.before.length))).toFixed(1)} %`, ...report('CONCISE', concise, true));

// The engine writes few abbreviations; VERBOSE is also run on the same sections as CONCISE abbreviated them.
const ABBR = /\b(?:HTN|DM2?|T2DM|CHF|CAD|COPD|GERD|CKD|UTI|MI|AFib|DVT|PE|OSA|SOB|DOE|CP|HA|ROM|BP|HR|RRR|CTAB|NKDA|PMH|h\/o|c\/o|f\/u|PT|Rx|Dx|Tx|Hx|BID|TID|QID|QD|QHS|PRN|PO|NSAIDs?|EKG|ECG|Pt)\b/g;
const count = (t: string) => (t.match(ABBR) ?? []).length;
const verbose = concise.map((o) => ({ id: o.id, before: o.after, after: rewriteText(o.after, 'VERBOSE') }));
const a0 = verbose.reduce((n, o) => n + count(o.before), 0);
const a1 = verbose.reduce((n, o) => n + count(o.after), 0);
lines.push(`VERBOSE (on the CONCISE output): abbreviations ${a0} → ${a1} (${a0 ? (100 * (1 - a1 / a0)).toFixed(1) : '0'} % expanded); ${verbose.reduce((n, o) => n + o.before.length, 0)} → ${verbose.reduce((n, o) => n + o.after.length, 0)} characters`, ...report('VERBOSE', verbose, false));
console.log(lines.join('\n'));
