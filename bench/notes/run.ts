/**
 * npm run bench:notes [-- --split valid|train] [--fold tune|heldout|all] [--dx-errors] [--write]
 * Generates notes for the ACI-BENCH split with the embedded engine and scores them against the scribe
 * notes: ROUGE-1/2/L (rouge_score semantics), medication and diagnosis precision/recall against what
 * the reference notes state, and throughput on one core.
 * Train is split into two folds: `--fold tune` (the default for train) is the only one tuning decisions
 * look at; `--fold heldout` (every fifth encounter) is never tuned on and is reported next to valid.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EmbeddedNotesEngine, noteToText } from '../../server/engines/notes/embedded/index';
import { dialogueToTranscript } from '../../server/engines/notes/embedded/dialogue';
import { findDrugs } from '../../server/engines/notes/embedded/meds';
import { referenceFacts } from '../clinical/facts';
import { noteAllergies, noteOrders, referenceAllergies, referenceOrders } from './coded-facts';
import { isHeldOut } from './folds';
import { DIVISIONS, splitDivisions } from './divisions';
import { rouge } from './rouge';

const root = path.resolve(import.meta.dirname, '../..');
const split = process.argv.includes('--split') ? process.argv[process.argv.indexOf('--split') + 1] : 'valid';
const file = path.resolve(root, '../shared/data/aci-bench', `${split}.jsonl`);
if (!existsSync(file)) {
  console.log(`skipped: ${file} not found (the ACI-BENCH data lives in ../shared/data/aci-bench)`);
  process.exit(0);
}
const fold = split === 'train' ? (process.argv.includes('--fold') ? process.argv[process.argv.indexOf('--fold') + 1] : 'tune') : 'all';
if (!['tune', 'heldout', 'all'].includes(fold)) {
  console.error(`--fold must be tune, heldout or all (got ${fold})`);
  process.exit(2);
}
const rows = readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as { encounter_id: string; dialogue: string; note: string; dataset: string })
  .filter((_r, i) => fold === 'all' || (fold === 'heldout') === isHeldOut(i));
const engine = new EmbeddedNotesEngine();
// --dx-errors lists each encounter's wrong and missed diagnosis categories, on the tune fold only: the valid split and
// the held-out fold are reported, never looked into.
const dxErrors = process.argv.includes('--dx-errors');
if (dxErrors && fold !== 'tune') {
  console.error('--dx-errors is for the tune fold of train only (--split train --fold tune)');
  process.exit(2);
}

const prf = (tp: number, np: number, nr: number) => ({ p: np ? tp / np : 0, r: nr ? tp / nr : 0 });
let r1 = 0, r2 = 0, rl = 0;
const med = { tp: 0, np: 0, nr: 0 };
const dx = { tp: 0, np: 0, nr: 0 };
const allergy = { tp: 0, np: 0, nr: 0 };
const order = { tp: 0, np: 0, nr: 0 };
let ordersAsText = 0;
const count = (acc: { tp: number; np: number; nr: number }, pred: Set<string>, ref: Set<string>) => {
  acc.np += pred.size; acc.nr += ref.size; for (const x of pred) if (ref.has(x)) acc.tp++;
};
const perDataset = new Map<string, { n: number; r1: number }>();
let words = 0;
// Per ACI-BENCH division: ROUGE-1 F1 averaged over the notes whose reference has that division.
const byDivision = new Map(DIVISIONS.map((d) => [d, { n: 0, r1: 0 }]));
const t0 = process.hrtime.bigint();
const outputs = rows.map((row) =>
  engine.generateSync({ transcript: dialogueToTranscript(row.dialogue), sections: [], preferences: { verbosity: 'BALANCED', sectionFormat: {} } }),
);
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
rows.forEach((row, i) => {
  const res = outputs[i];
  const note = noteToText(res);
  words += note.split(/\s+/).length;
  const s = rouge(row.note, note);
  r1 += s.rouge1.f1; r2 += s.rouge2.f1; rl += s.rougeL.f1;
  const refDiv = splitDivisions(row.note);
  const outDiv = splitDivisions(note);
  for (const div of DIVISIONS) {
    if (!refDiv[div]) continue;
    const acc = byDivision.get(div)!;
    acc.n++;
    acc.r1 += rouge(refDiv[div], outDiv[div]).rouge1.f1;
  }
  const d = perDataset.get(row.dataset) ?? { n: 0, r1: 0 };
  d.n++; d.r1 += s.rouge1.f1; perDataset.set(row.dataset, d);
  const ref = referenceFacts(row.note);
  const meds = new Set([
    ...res.structured_data.orders.medication_orders.values.map((o) => o.drug_name),
    ...res.structured_data.orders.medication_orders.partial_values.map((o) => o.drug_name),
    ...findDrugs(res.summary.find((x) => x.loinc_code === '10160-0')?.content ?? '').map((x) => x.ingredient),
  ]);
  med.np += meds.size; med.nr += ref.drugs.size; for (const m of meds) if (ref.drugs.has(m)) med.tp++;
  const dxs = new Set(res.structured_data.diagnoses.values.map((v) => v.codes[0].code.slice(0, 3)).filter((c) => !c.startsWith('Z')));
  dx.np += dxs.size; dx.nr += ref.dx.size; for (const c of dxs) if (ref.dx.has(c)) dx.tp++;
  if (dxErrors) {
    const fp = [...dxs].filter((c) => !ref.dx.has(c)).map((c) => `${c} ${res.structured_data.diagnoses.values.find((v) => v.codes[0].code.startsWith(c))?.codes[0].description}`);
    const fn = [...ref.dx].filter((c) => !dxs.has(c));
    if (fp.length || fn.length) console.log(`${row.encounter_id}  false+ [${fp.join('; ')}]  missed [${fn.join(', ')}]`);
  }
  count(allergy, noteAllergies(res), referenceAllergies(row.note));
  count(order, noteOrders(res), referenceOrders(row.note));
  ordersAsText += res.structured_data.orders.service_orders.values.filter((o) => !o.code).length;
  if (process.env.BENCH_VERBOSE) console.log(row.encounter_id, row.dataset, (s.rouge1.f1 * 100).toFixed(1));
});
const n = rows.length;
const m = prf(med.tp, med.np, med.nr);
const d = prf(dx.tp, dx.np, dx.nr);
const pct = (x: number) => (x * 100).toFixed(1);
// With nothing predicted or nothing stated the ratio is undefined, not 0 (valid's reference notes state no allergy).
const ratio = (num: number, den: number) => (den ? pct(num / den) : 'n/a');
const pr = (acc: { tp: number; np: number; nr: number }) => `precision ${ratio(acc.tp, acc.np)}  recall ${ratio(acc.tp, acc.nr)}`;
const lines = [
  `ACI-BENCH ${split} split${fold === 'all' ? '' : ` (${fold} fold)`}, ${n} encounters, embedded engine (BALANCED)`,
  `ROUGE-1 ${pct(r1 / n)}  ROUGE-2 ${pct(r2 / n)}  ROUGE-L ${pct(rl / n)}  (F1 averaged over notes)`,
  `by sub-corpus ROUGE-1: ${[...perDataset].map(([k, v]) => `${k} ${pct(v.r1 / v.n)} (n=${v.n})`).join(', ')}`,
  `by division ROUGE-1: ${[...byDivision].map(([k, v]) => `${k} ${pct(v.n ? v.r1 / v.n : 0)} (n=${v.n})`).join(', ')}`,
  `medications vs reference note: precision ${pct(m.p)}  recall ${pct(m.r)}  (${med.tp}/${med.np} predicted, ${med.tp}/${med.nr} stated)`,
  `diagnoses (ICD-10-CM category) vs reference A&P: precision ${pct(d.p)}  recall ${pct(d.r)}  (${dx.tp}/${dx.np}, ${dx.tp}/${dx.nr})`,
  `allergies (RxNorm/ATC substance) vs reference note: ${pr(allergy)}  (${allergy.tp}/${allergy.np} predicted, ${allergy.tp}/${allergy.nr} stated)`,
  `lab/imaging orders (LOINC) vs reference A&P: ${pr(order)}  (${order.tp}/${order.np} predicted, ${order.tp}/${order.nr} stated; ${ordersAsText} more kept as text)`,
  `speed: ${(n / seconds).toFixed(1)} notes/s on one core (${((seconds / n) * 1000).toFixed(1)} ms per note), mean note ${Math.round(words / n)} words`,
];
console.log(lines.join('\n'));
if (process.argv.includes('--write')) {
  const md = readFileSync(path.join(root, 'bench/notes/RESULTS.md'), 'utf8');
  const block = '```\n' + lines.join('\n') + '\n```';
  writeFileSync(path.join(root, 'bench/notes/RESULTS.md'), md.replace(/<!-- results:start -->[\s\S]*<!-- results:end -->/, `<!-- results:start -->\n${block}\n<!-- results:end -->`));
}
