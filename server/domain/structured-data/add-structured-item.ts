import type { EditBodies, StructuredDataEditResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { buildStructuredItem } from './build-structured-item';
import { changeStructuredData } from './change-structured-data';
import { listOf } from './structured-lists';

/** Adds a clinician's diagnosis, medication order, allergy or lab/imaging order at the end of its list. */
export async function addStructuredItem<K extends StructuredKind>(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  kind: K,
  edit: EditBodies[K],
): Promise<StructuredDataEditResponse> {
  // Built (and its codes checked) before the note is locked, so a bad code costs no transaction.
  const item = buildStructuredItem(app, kind, edit);
  return changeStructuredData(app, auth, sessionId, kind, (sd) => {
    const list = listOf(sd, kind);
    list.push(item);
    // Medication orders are listed values then partial_values: a new order is the last of values.
    const position = list.length - 1;
    return { action: 'add', position, before: null, after: item, resultPosition: position };
  });
}
