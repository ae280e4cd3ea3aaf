/** The instructions and the visit as the language model reads them. */
import {
  DOSAGE_UNIT_CODES,
  FREQUENCY_TYPE_CODES,
  MEDICATION_ORDER_STATUS_CODES,
  MEDICATION_TIMING_CODES,
} from '@/lib/info';
import type { NoteRequest } from './types';
import { SECTION_TITLES } from './embedded/vocab';

export const SYSTEM_PROMPT = `You are a medical scribe. From the visit transcript, write the clinical note a good scribe would write.
Write each requested section as clinical prose in the third person ("The patient is a 45-year-old female who presents for ...", "She reports ...", "She denies ...").
Write only what the transcript or the given context states. Keep every number, drug, dose, laterality and negation exactly as stated.
Evidence: every transcript line starts with its id in brackets. For each sentence, diagnosis and medication order, list in "evidence" the ids of the lines that state it. A sentence no line states must not be written.
Everything you write is checked against the transcript: a fact with no line stating it (a dose, a diagnosis, an allergy, a test, a number) is removed from the note.
Diagnoses: only conditions the patient has (not denied, not family history), with the ICD-10-CM code.
Medication orders: only orders the clinician makes or changes in this visit, with the RxNorm ingredient code (rxnorm_code) when you know it; status is one of ${MEDICATION_ORDER_STATUS_CODES.join(', ')};
frequency one of ${FREQUENCY_TYPE_CODES.join(', ')}; timing one of ${MEDICATION_TIMING_CODES.join(', ')} or null; dose_unit one of ${DOSAGE_UNIT_CODES.join(', ')}.
Answer with the JSON object only.`;

const VERBOSITY: Record<NoteRequest['preferences']['verbosity'], string> = {
  CONCISE: 'Be concise: short sentences, only what matters clinically.',
  BALANCED: 'Use a balanced level of detail.',
  DETAILED: 'Be detailed: include every relevant finding and the reasoning the clinician gave.',
};

/**
 * The clinician's choices reach the model as instructions: which sections in which order, the verbosity,
 * bulleted or narrative sections, and text the clinician already wrote (precharted), which is kept. The
 * clinician-templates feature does not exist yet; when it does, its instructions belong here too.
 */
export function noteInstructions(req: NoteRequest, sections: string[]): string {
  const format = req.preferences?.sectionFormat ?? {};
  const lines = [
    `Sections, in this order (LOINC: heading): ${sections.map((c) => `${c}: ${SECTION_TITLES[c] ?? c}`).join('; ')}.`,
    VERBOSITY[req.preferences?.verbosity ?? 'BALANCED'] ?? VERBOSITY.BALANCED,
  ];
  const bulleted = sections.filter((c) => format[c] === 'BULLETED');
  if (bulleted.length) lines.push(`Write these sections as one short item per sentence: ${bulleted.join(', ')}.`);
  for (const s of req.sections ?? []) {
    const text = (s.precharted ?? []).flatMap((p) => (p.type === 'string' ? [p.content] : [])).join('\n').trim();
    if (text) lines.push(`The clinician already wrote for ${s.loinc} (keep it): ${text}`);
  }
  return lines.join('\n');
}

/** The visit and what the session knew before it, with the transcript lines the evidence ids refer to. */
export function visitMessage(req: NoteRequest, sections: string[]): string {
  const transcript = req.transcript.map((l) => `[${l.transcriptId}] ${l.speaker}: ${l.text}`).join('\n');
  return [
    noteInstructions(req, sections),
    req.visit?.chief_complaint ? `Chief complaint: ${req.visit.chief_complaint}` : '',
    req.visit?.reason_for_visit ? `Reason for visit: ${req.visit.reason_for_visit}` : '',
    req.patient ? `Patient: ${JSON.stringify(req.patient)}` : '',
    req.emrContext?.medications.length ? `EMR medications: ${req.emrContext.medications.map((m) => m.name).join(', ')}` : '',
    req.emrContext?.problems.length ? `EMR problems: ${req.emrContext.problems.map((p) => p.name).join(', ')}` : '',
    'Transcript:',
    transcript,
  ]
    .filter(Boolean)
    .join('\n');
}
