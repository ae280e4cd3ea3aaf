import { eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { CreateSessionRequest, CreateSessionResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { ambientSessions, sessionTransitions } from '../../db/schema';
import { isUniqueViolation, systemDb, tenantDb } from '../../db';
import type { ServicePrincipal } from '../../auth/authenticate-service';

const DUPLICATE = 'conflict: an ambient session with this ambient_session_id already exists';

/**
 * Creates a session in `created` and records that first transition. A caller-chosen id that exists
 * anywhere, even under another partner, is a 409 with a message that does not say whose it is.
 */
export async function createSession(app: AppContext, auth: ServicePrincipal, body: CreateSessionRequest): Promise<CreateSessionResponse> {
  const id = body.ambient_session_id ?? crypto.randomUUID();
  const encounterId = body.encounter_id ?? body.session_group_id ?? crypto.randomUUID();
  const noteId = crypto.randomUUID();
  if (body.ambient_session_id) {
    const exists = await systemDb(app, 'a caller-chosen session id is unique across every tenant')
      .select({ id: ambientSessions.id })
      .from(ambientSessions)
      .where(eq(ambientSessions.id, id))
      .limit(1);
    if (exists.length > 0) throw conflict(DUPLICATE);
  }
  try {
    await tenantDb(app, auth).transaction(async (tx) => {
      await tx.insert(ambientSessions, {
        id,
        noteId,
        encounterId,
        emrEncounterId: body.emr_encounter_id ?? null,
        partnerId: auth.partnerId,
        providerId: auth.providerId,
        status: 'created',
      });
      await tx.insert(sessionTransitions, { sessionId: id, fromStatus: null, toStatus: 'created', reason: 'created through the API' });
    });
  } catch (err) {
    // Two creates racing on the same id: the primary key decides.
    if (isUniqueViolation(err)) throw conflict(DUPLICATE);
    throw err;
  }
  return { ambient_session_id: id, note_id: noteId, encounter_id: encounterId };
}
