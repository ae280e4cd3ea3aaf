/**
 * How much the checker would miss: each note gets one invented fact at a time, put into a copy of the note,
 * and the check counts as caught when that sentence then has an unsupported fact. The inventions are the
 * ones issue 27 and issue 32 name: a dose changed, a denial turned into a finding and back, a frequency
 * changed, a vital sign changed, and a drug, a diagnosis and an allergy nobody mentioned.
 */
import { checkNoteFaithfulness } from '../../server/engines/notes/faithfulness/index';
import type { NoteResult, NoteSection, TranscriptLine } from '../../server/engines/notes/types';

type Changed = { summary: NoteSection[]; text: string } | undefined;
type Mutation = { kind: string; apply: (summary: NoteSection[], said: string, ok: ReadonlySet<string>) => Changed };

const DRUGS = ['warfarin', 'prednisone', 'amoxicillin', 'furosemide', 'sertraline'];
const PROBLEMS: Array<[string, RegExp]> = [['atrial fibrillation', /fibrillation|afib/], ['asthma', /asthma/], ['gout', /gout/], ['hypothyroidism', /thyroid/]];
const ALLERGENS = ['sulfa', 'latex', 'codeine', 'iodine'];

/**
 * Rewrites the first matching sentence the check found fully supported, so that the rewrite is known to be
 * wrong (a denial made of a finding the engine had wrong would be right). The section's content is left as
 * is: the check reads sentences.
 */
function rewrite(summary: NoteSection[], ok: ReadonlySet<string>, re: RegExp, to: (m: RegExpExecArray) => string): Changed {
  for (const [i, s] of summary.entries())
    for (const [k, x] of (s.sentences ?? []).entries()) {
      const m = ok.has(x.text) ? re.exec(x.text) : null;
      if (!m) continue;
      const text = x.text.slice(0, m.index) + to(m) + x.text.slice(m.index + m[0].length);
      const sentences = [...s.sentences!];
      sentences[k] = { ...x, text };
      const out = [...summary];
      out[i] = { ...s, sentences };
      return { summary: out, text };
    }
  return undefined;
}
function append(summary: NoteSection[], loinc: string, text: string): Changed {
  const i = summary.findIndex((s) => s.loinc_code === loinc);
  if (i < 0) return undefined;
  const out = [...summary];
  out[i] = { ...out[i], sentences: [...(out[i].sentences ?? []), { text, source_transcripts: [] }] };
  return { summary: out, text };
}

const MUTATIONS: Mutation[] = [
  { kind: 'dose changed', apply: (s, _said, ok) => rewrite(s, ok, /\b(\d+(?:\.\d+)?) (mg|mcg|units?)\b/, (m) => `${Number(m[1]) * 2} ${m[2]}`) },
  { kind: 'frequency changed', apply: (s, _said, ok) => rewrite(s, ok, /\b(?:once )?daily\b/, () => 'three times daily') },
  { kind: 'vital sign changed', apply: (s, _said, ok) => rewrite(s, ok, /\b(\d{2,3})\/(\d{2,3})\b/, (m) => `${Number(m[1]) + 20}/${m[2]}`) },
  { kind: 'denial made a finding', apply: (s, _said, ok) => rewrite(s, ok, /^Denies\b/, () => 'Endorses') },
  { kind: 'finding made a denial', apply: (s, _said, ok) => rewrite(s, ok, /^Endorses\b/, () => 'Denies') },
  { kind: 'drug invented', apply: (s, said) => { const d = DRUGS.find((x) => !said.includes(x)); return d ? append(s, '51847-2', `Start ${d} 10 mg daily.`) : undefined; } },
  { kind: 'diagnosis invented', apply: (s, said) => { const p = PROBLEMS.find(([, re]) => !re.test(said)); return p ? append(s, '10164-2', `History of ${p[0]}.`) : undefined; } },
  { kind: 'allergy invented', apply: (s, said) => { const a = ALLERGENS.find((x) => !said.includes(x)); return a ? append(s, '48765-2', `Allergic to ${a}.`) : undefined; } },
];

/** Per kind of invented fact: how many were put in, and how many the checker flagged. */
export function mutationCatchRate(notes: Array<{ result: NoteResult; transcript: TranscriptLine[] }>): Map<string, { tried: number; caught: number }> {
  const out = new Map<string, { tried: number; caught: number }>();
  for (const { result, transcript } of notes) {
    const said = transcript.map((l) => l.text.toLowerCase()).join(' ');
    const before = checkNoteFaithfulness(result, transcript);
    const ok = new Set(before.sentences.filter((s) => s.facts.length && s.facts.every((f) => f.supported)).map((s) => s.text));
    for (const m of MUTATIONS) {
      const mutated = m.apply(result.summary, said, ok);
      if (!mutated) continue;
      const report = checkNoteFaithfulness({ summary: mutated.summary, structured_data: result.structured_data }, transcript);
      const caught = report.sentences.some((s) => s.text === mutated.text && s.facts.some((f) => !f.supported));
      const t = out.get(m.kind) ?? { tried: 0, caught: 0 };
      t.tried++;
      if (caught) t.caught++;
      out.set(m.kind, t);
    }
  }
  return out;
}
