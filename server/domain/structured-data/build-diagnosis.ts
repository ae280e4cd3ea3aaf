import { badRequest } from '@/lib/errors';
import type { StructuredData } from '@/lib/contracts/sessions';
import type { DiagnosisEdit } from '@/lib/contracts/structured-data-edits';
import type { CodeIndex } from '../../codesets/index';

type Diagnosis = StructuredData['diagnoses']['values'][number];

/**
 * A diagnosis as the clinician set it: the ICD-10-CM code from the code sets (400 naming `code` when it is not
 * there) with its CMS-HCC category, as the engine codes one. The transcript lines of the item it replaces stay
 * only while the code is the same, since they support that code and not another.
 */
export function buildDiagnosis(codes: CodeIndex, edit: DiagnosisEdit, before?: Diagnosis): Diagnosis {
  const icd = codes.icd10(edit.code);
  if (!icd) throw badRequest(`code: ${edit.code} is not an ICD-10-CM code in the code sets (search GET /api/v1/codes/icd10)`);
  const out: Diagnosis['codes'] = [{ code: icd.code, description: icd.description, type: 'ICD10' }];
  const hcc = codes.hcc(icd.code);
  if (hcc) out.push({ code: hcc.code, description: hcc.label, type: 'HCC' });
  const sameCode = before?.codes.some((c) => c.type === 'ICD10' && c.code === icd.code);
  return {
    codes: out,
    diagnosis_note: edit.diagnosis_note ?? (sameCode ? (before?.diagnosis_note ?? '') : ''),
    ...(edit.laterality_indicator ? { laterality_indicator: edit.laterality_indicator } : {}),
    ...(sameCode && before?.source_transcripts ? { source_transcripts: before.source_transcripts } : {}),
  };
}
