import type { FaithfulnessContext } from '../faithfulness/index';
import type { NoteRequest } from '../types';

/** What the session knew before the visit, as the checker reads it: a fact stated there is supported too. */
export function faithfulnessContext(req: NoteRequest): FaithfulnessContext {
  const clinicianText = (req.sections ?? []).flatMap((s) => (s.precharted ?? []).flatMap((p) => (p.type === 'string' && p.content.trim() ? [p.content] : [])));
  return {
    visit: req.visit,
    emrContext: req.emrContext,
    contextDiagnoses: req.contextDiagnoses,
    contextMedicationOrders: req.contextMedicationOrders,
    ...(clinicianText.length ? { clinicianText } : {}),
  };
}
