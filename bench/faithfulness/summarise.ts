import type { FaithfulnessReport, FactResult, SentenceResult } from '../../server/engines/notes/faithfulness/index';

export interface NoteCheck { id: string; report: FaithfulnessReport }

const pct = (n: number, d: number) => (d ? ((n / d) * 100).toFixed(1) : '0.0');
const count = <K extends string>(keys: K[]) => {
  const m = new Map<K, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
};
// Worst first: a wrong fact in the text (a flip, a contradiction, a misfiled reaction) before a missing one.
const SEVERITY: Record<string, number> = {
  'contradicts-coded-order': 0, 'negation-flip': 1, 'allergy-reaction-as-finding': 2, 'family-history-as-patient': 3,
  'dose-not-with-drug': 4, 'agreement-not-said': 5, 'not-in-transcript': 6,
};

/** The figures bench:faithfulness prints for one set of notes. */
export function summarise(name: string, checks: NoteCheck[], opts: { verbose?: boolean; worst?: number } = {}): string[] {
  const sentences = checks.flatMap((c) => c.report.sentences);
  const text = checks.flatMap((c) => c.report.sentences.flatMap((s) => s.facts.filter((f) => !f.supported).map((f) => ({ id: c.id, s, f }))));
  const coded = checks.flatMap((c) => c.report.coded.flatMap((s) => s.facts.filter((f) => !f.supported).map((f) => ({ id: c.id, s, f }))));
  const facts = sentences.reduce((n, s) => n + s.facts.length, 0);
  const templ = sentences.filter((s) => s.template);
  const written = sentences.filter((s) => !s.template);
  const noEv = written.filter((s) => s.noEvidence);
  const cited = written.filter((s) => s.claimedEvidence.length);
  const inTemplate = text.filter((x) => x.s.template).length;
  const n = checks.length;
  const flagged = (flag: SentenceResult['flags'][number]) => sentences.filter((s) => s.flags.includes(flag)).length;
  const lines = [
    `${name}: ${n} notes, ${sentences.length} sentences, ${facts} facts checked`,
    `unsupported facts in the note text: ${text.length} (${(text.length / n).toFixed(2)} per note; ${inTemplate} of them in template sentences); notes with none: ${checks.filter((c) => c.report.sentences.every((s) => s.facts.every((f) => f.supported))).length}/${n}`,
    `  by kind: ${count(text.map((x) => x.f.fact.kind))}`,
    `  by reason: ${count(text.map((x) => x.f.reason!))}`,
    `unsupported facts in the coded data: ${coded.length} (${(coded.length / n).toFixed(2)} per note) of ${checks.reduce((k, c) => k + c.report.coded.reduce((j, s) => j + s.facts.length, 0), 0)}; by kind: ${count(coded.map((x) => x.f.fact.kind))}`,
    `sentences without evidence: ${noEv.length} of ${written.length} non-template sentences (${pct(noEv.length, written.length)} %); with evidence: ${pct(written.length - noEv.length, written.length)} %`,
    `engine-cited entries that hold the sentence: ${cited.length ? `${pct(cited.filter((s) => s.verifiedEvidence.length).length, cited.length)} % of ${cited.length} cited non-template sentences` : 'no sentence cites entries'}`,
    `template sentences: ${templ.length} (${count(templ.map((s) => s.template!))})`,
    `misfiled: ${count(sentences.filter((s) => s.misfiled).map((s) => s.misfiled!))} (sentences)`,
    `pasted speech: "[unclear]" ${flagged('unclear')}, greeting ${flagged('greeting')}, addressed speech ${flagged('addressed-speech')} (sentences)`,
  ];
  // Worst first, at most three of one reason before the others get a turn, so one repeated line cannot fill the list.
  const ranked = [...text].sort((a, b) => SEVERITY[a.f.reason!] - SEVERITY[b.f.reason!] || Number(!!a.s.template) - Number(!!b.s.template));
  const perReason = new Map<string, number>();
  const first = ranked.filter((x) => {
    const n = perReason.get(x.f.reason!) ?? 0;
    perReason.set(x.f.reason!, n + 1);
    return n < 3;
  });
  const worst = [...first, ...ranked.filter((x) => !first.includes(x))].slice(0, opts.worst ?? 10);
  lines.push(`worst ${worst.length}:`);
  for (const w of worst) lines.push(`  ${w.id} [${w.s.section}] "${clip(w.s.text)}" — ${describe(w.f)}`);
  if (opts.verbose) {
    for (const x of [...text, ...coded]) lines.push(`  ${x.id} [${x.s.section}] "${clip(x.s.text)}" — ${describe(x.f)}`);
    for (const c of checks) for (const s of c.report.sentences) if (s.misfiled || s.flags.length) lines.push(`  ${c.id} [${s.section}] "${clip(s.text)}" — ${[s.misfiled, ...s.flags].filter(Boolean).join(', ')}`);
  }
  return lines;
}

function describe(f: FactResult): string {
  return `${f.fact.kind} "${f.fact.text}" (${f.fact.key}${f.fact.drug ? ` with ${f.fact.drug}` : ''}): ${f.reason}`;
}
function clip(s: string): string {
  return s.length > 110 ? `${s.slice(0, 107)}…` : s;
}
