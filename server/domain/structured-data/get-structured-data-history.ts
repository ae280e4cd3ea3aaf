import { desc, eq } from 'drizzle-orm';
import type { StructuredDataHistoryResponse, StructuredKind } from '@/lib/contracts/structured-data-edits';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { providers, structuredDataVersions } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';

const LIMIT = 500;

/** The clinician's changes of the caller's own note's structured data, newest first (another tenant's session is 404). */
export async function getStructuredDataHistory(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<StructuredDataHistoryResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const v = structuredDataVersions;
  const rows = await tenantDb(app, auth)
    .select(v, { v, name: providers.name }, eq(v.sessionId, session.id))
    .leftJoin(providers, eq(providers.id, v.providerId))
    .orderBy(desc(v.at), desc(v.id))
    .limit(LIMIT);
  return {
    changes: rows.map(({ v: r, name }) => ({
      kind: r.kind as StructuredKind,
      action: r.action as 'add' | 'edit' | 'remove',
      position: r.position,
      at: r.at.toISOString(),
      by: { provider_id: r.providerId, name },
      before: r.before ?? null,
      after: r.after ?? null,
    })),
  };
}
