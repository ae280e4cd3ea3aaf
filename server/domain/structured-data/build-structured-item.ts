import type { Allergy, MedicationOrder, ServiceOrder, StructuredData } from '@/lib/contracts/sessions';
import type { EditBodies, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { AppContext } from '../../context';
import { buildAllergy } from './build-allergy';
import { buildDiagnosis } from './build-diagnosis';
import { buildMedicationOrder } from './build-medication-order';
import { buildServiceOrder } from './build-service-order';
import { orderableLookup } from './orderable-lookup';
import { substanceLookup } from './substance-lookup';

/** The stored item for a clinician's edit of one kind, given the item it replaces (if any). */
export function buildStructuredItem<K extends StructuredKind>(app: Pick<AppContext, 'services'>, kind: K, edit: EditBodies[K], before?: unknown): unknown {
  const codes = app.services.codes;
  switch (kind) {
    case 'diagnoses':
      return buildDiagnosis(codes, edit as EditBodies['diagnoses'], before as StructuredData['diagnoses']['values'][number] | undefined);
    case 'medication_orders':
      return buildMedicationOrder(codes, edit as EditBodies['medication_orders'], before as MedicationOrder | undefined);
    case 'allergies':
      return buildAllergy(substanceLookup(codes), edit as EditBodies['allergies'], before as Allergy | undefined);
    default:
      return buildServiceOrder(orderableLookup(), edit as EditBodies['service_orders'], before as ServiceOrder | undefined);
  }
}
