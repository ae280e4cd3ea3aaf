import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { StructuredData } from '@/lib/contracts/sessions';
import type { StructuredDataEditResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { sessionContent, structuredDataVersions } from '../../db/schema';
import { lockOwnedNote } from '../note-signoff/lock-owned-note';
import { readStoredContent } from '../sessions/get-session-content';
import { readStructuredData } from './structured-lists';
import { storedStructuredDataVersion, structuredDataVersion } from './structured-data-version';

export interface StructuredChange {
  action: 'add' | 'edit' | 'remove';
  position: number;
  before: unknown;
  after: unknown;
  /** Where the item is after the change; null after a removal. */
  resultPosition: number | null;
}

/**
 * Applies one clinician change to the note's stored structured data, in the note's transaction, and keeps it
 * as a version (who, when, before, after). The stored data is replaced, so every reader of session_content
 * (content, FHIR, visit summary, encounter merge, the links of NOTE_SIGNED) answers the edited data. A signed
 * note is locked: 409 until amended, as for section edits. An unchanged edit is no new version.
 */
export async function changeStructuredData(
  app: AppContext,
  auth: ServicePrincipal,
  sessionId: string,
  kind: StructuredKind,
  apply: (sd: StructuredData) => StructuredChange,
  /** The version a change addressed by position was made on; an add (appended, no position) needs none. */
  expectedVersion?: string,
): Promise<StructuredDataEditResponse> {
  const tdb = tenantDb(app, auth);
  const position = await tdb.transaction(async (tx) => {
    const { note } = await lockOwnedNote(tx, sessionId);
    if (note.noteLocked) throw conflict('the note is signed; amend it (with a reason) before changing its structured data');
    // Checked under the note's row lock, so of two changes made on one version only the first lands.
    const current = storedStructuredDataVersion(note.structuredData);
    if (expectedVersion !== undefined && expectedVersion !== current) {
      throw conflict(`version: the structured data changed since version ${expectedVersion} (it is now ${current}); read it again and make the change on what is at ${kind} now`);
    }
    const sd = readStructuredData(note.structuredData);
    const change = apply(sd);
    if (change.action === 'edit' && JSON.stringify(change.before) === JSON.stringify(change.after)) return change.resultPosition;
    const now = new Date();
    await tx.update(sessionContent, { structuredData: sd, updatedAt: now }, eq(sessionContent.sessionId, sessionId));
    await tx.insert(structuredDataVersions, {
      sessionId,
      kind,
      action: change.action,
      position: change.position,
      before: change.before ?? null,
      after: change.after ?? null,
      providerId: auth.providerId,
      at: now,
    });
    return change.resultPosition;
  });
  const content = await readStoredContent(tdb, sessionId);
  return { structured_data: content.structured_data, position, structured_data_version: structuredDataVersion(content.structured_data) };
}
