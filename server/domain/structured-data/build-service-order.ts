import { badRequest } from '@/lib/errors';
import type { ServiceOrder } from '@/lib/contracts/sessions';
import type { ServiceOrderEdit } from '@/lib/contracts/structured-data-edits';
import type { OrderableLookup } from './orderable-lookup';

/**
 * A lab or imaging order as the clinician set it. A LOINC code must be one of the curated orderables (400
 * naming `loinc`), whose name and category it takes for the code's display; without one the order is kept as
 * the clinician's text. The transcript lines of the order it replaces stay while the order is the same.
 */
export function buildServiceOrder(lookup: OrderableLookup, edit: ServiceOrderEdit, before?: ServiceOrder): ServiceOrder {
  let code: ServiceOrder['code'] = null;
  if (edit.loinc) {
    const found = lookup.find(edit.loinc);
    if (!found) throw badRequest(`loinc: ${edit.loinc} is not one of the lab or imaging orderables (search GET /api/v1/codes/orderables)`);
    if (found.category !== edit.category) throw badRequest(`category: ${edit.loinc} is a ${found.category} order, not ${edit.category}`);
    code = { code: found.code, type: 'LOINC', display: found.display };
  }
  const same = !!before && (before.code?.code ?? before.name.toLowerCase()) === (code?.code ?? edit.name.toLowerCase());
  return {
    name: edit.name,
    category: edit.category,
    code,
    timing: edit.timing || null,
    ...(same && before?.source_transcripts ? { source_transcripts: before.source_transcripts } : {}),
  };
}
