import type { EditBodies, StructuredDataEditResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { buildStructuredItem } from './build-structured-item';
import { changeStructuredData } from './change-structured-data';
import { listOf, locateItem, noItemAt, withoutEvidence } from './structured-lists';

/**
 * Replaces the item at a position with the clinician's version, if the structured data is still at `version` (else 409). A medication order from partial_values that
 * the clinician completes moves to the end of values (the clinician's form gives a whole order).
 */
export async function updateStructuredItem<K extends StructuredKind>(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  kind: K,
  position: number,
  edit: EditBodies[K],
  version: string,
): Promise<StructuredDataEditResponse> {
  return changeStructuredData(app, auth, sessionId, kind, (sd) => {
    const slot = locateItem(sd, kind, position);
    if (!slot) throw noItemAt(kind, position);
    const before = withoutEvidence(slot.list[slot.index]);
    const after = buildStructuredItem(app, kind, edit, before);
    const target = listOf(sd, kind);
    if (slot.list === target) {
      slot.list[slot.index] = after;
      return { action: 'edit', position, before, after, resultPosition: position };
    }
    slot.list.splice(slot.index, 1);
    target.push(after);
    return { action: 'edit', position, before, after, resultPosition: target.length - 1 };
  }, version);
}
