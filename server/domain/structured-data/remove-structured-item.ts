import type { StructuredDataEditResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { changeStructuredData } from './change-structured-data';
import { locateItem, noItemAt, withoutEvidence } from './structured-lists';

/** Removes the item at a position of its list if the structured data is still at `version` (else 409); the history keeps the item removed. */
export async function removeStructuredItem(app: AppContext, auth: ServicePrincipal, sessionId: string, kind: StructuredKind, position: number, version: string): Promise<StructuredDataEditResponse> {
  return changeStructuredData(app, auth, sessionId, kind, (sd) => {
    const slot = locateItem(sd, kind, position);
    if (!slot) throw noItemAt(kind, position);
    const [removed] = slot.list.splice(slot.index, 1);
    return { action: 'remove', position, before: withoutEvidence(removed), after: null, resultPosition: null };
  }, version);
}
