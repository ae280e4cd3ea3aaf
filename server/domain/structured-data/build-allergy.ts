import { badRequest } from '@/lib/errors';
import type { Allergy } from '@/lib/contracts/sessions';
import type { AllergyEdit } from '@/lib/contracts/structured-data-edits';
import type { SubstanceLookup } from './substance-lookup';

/**
 * An allergy as the clinician set it. A coded substance must be an RxNorm concept or a known drug class
 * (400 naming `substance_code.code`); its display comes from the code set. The transcript lines of the item it
 * replaces stay while the substance is the same.
 */
export function buildAllergy(lookup: SubstanceLookup, edit: AllergyEdit, before?: Allergy): Allergy {
  let code: Allergy['substance_code'] = null;
  if (edit.substance_code) {
    const found = lookup.find(edit.substance_code.type, edit.substance_code.code);
    if (!found) {
      const what = edit.substance_code.type === 'RXCUI' ? 'an RxNorm concept' : 'a drug class';
      throw badRequest(`substance_code.code: ${edit.substance_code.code} is not ${what} in the code sets (search GET /api/v1/codes/allergy-substances)`);
    }
    code = found;
  }
  const same = !!before && (before.substance_code?.code ?? before.substance.toLowerCase()) === (code?.code ?? edit.substance.toLowerCase());
  return {
    substance: edit.substance,
    substance_code: code,
    reaction: edit.reaction || null,
    verification: edit.verification,
    ...(same && before?.source_transcripts ? { source_transcripts: before.source_transcripts } : {}),
  };
}
