/** Coded diagnoses for structured data. */
import type { Diagnosis } from '../types';
import { conditionMentions } from './analyze';
import { stripFiller, type NoteContext } from './compose';
import { isDiagnosisCode, type Problem } from './plan';
import { clinicianToNote, finishSentence } from './text';

export function diagnoses(ctx: NoteContext, problems: Problem[]): Diagnosis[] {
  const out: Diagnosis[] = [];
  const seen = new Set<string>();
  const add = (code: string, note: string) => {
    const icd = ctx.codes.icd10(code);
    if (!icd || seen.has(icd.code)) return;
    seen.add(icd.code);
    const codes: Diagnosis['codes'] = [{ code: icd.code, description: icd.description, type: 'ICD10' }];
    const hcc = ctx.codes.hcc(icd.code, ctx.model);
    if (hcc) codes.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
    const d: Diagnosis = { codes, diagnosis_note: note };
    const desc = icd.description.toLowerCase();
    if (/\bbilateral\b/.test(desc)) d.laterality_indicator = 'BILATERAL';
    else if (/\bright\b/.test(desc)) d.laterality_indicator = 'RIGHT';
    else if (/\bleft\b/.test(desc)) d.laterality_indicator = 'LEFT';
    out.push(d);
  };
  for (const p of problems) {
    // A complaint named only as said (no lexicon condition) has no code to report.
    if (!p.code) continue;
    const note = [...p.reasoning, ...p.treatment, ...p.testing].slice(0, 2).map((x) => x.text).join(' ') || `${p.name}.`;
    add(p.code, note);
  }
  // A symptom code is dropped when a definitive diagnosis of the same problem is already coded.
  const a = ctx.a;
  for (const s of a.sentences) {
    if (s.role !== 'CLINICIAN' || s.question) continue;
    for (const m of conditionMentions(s)) {
      // Injuries (S codes) count only when the clinician names them in the assessment, not when asking.
      if (m.negated || m.family || !/^[A-QS-Y]/.test(m.code) || !isDiagnosisCode(m.code) || /^(Z|T|W)/.test(m.code) || (/^S/.test(m.code) && s.i < a.planStart)) continue;
      if (s.i >= a.planStart || /\b(history|diagnosed|have|has|with|your)\b/.test(s.tokens.slice(Math.max(0, m.start - 6), m.start).join(' ')))
        add(m.code, finishSentence(clinicianToNote(stripFiller(s.text), a.sex)));
    }
  }
  for (const d of out) d.source_transcripts = diagnosisEvidence(ctx, d.codes[0].code);
  return out;
}

/**
 * The entries that name or imply a diagnosis (issue 27): every sentence whose condition mention codes to
 * it, the patient's own or the clinician's, never negated or a relative's; else those of its category.
 * A lab-order sentence that does not name the problem is not its evidence.
 */
export function diagnosisEvidence(ctx: NoteContext, code: string): string[] {
  const exact: string[] = [];
  const category: string[] = [];
  for (const s of ctx.a.sentences) {
    for (const m of conditionMentions(s)) {
      if (m.negated || m.family) continue;
      const coded = ctx.codes.icd10(m.code)?.code ?? m.code;
      if (coded === code) exact.push(s.tid);
      else if (coded.slice(0, 3) === code.slice(0, 3)) category.push(s.tid);
    }
  }
  return [...new Set(exact.length ? exact : category)];
}
