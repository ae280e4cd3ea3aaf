import { eq, sql } from 'drizzle-orm';
import { badRequest, conflict, notFound } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import { SessionContext, type PatchContextRequest } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { zodMessage } from '../../http/zod-message';
import { mergeContext } from './merge-context';
import { checkMedicationOrders } from './check-medication-orders';

export type ContextUpdate = { mode: 'replace'; context: SessionContext } | { mode: 'merge'; patch: PatchContextRequest };

/**
 * Replaces (POST) or merges into (PATCH) the session context. The row is locked for the read-merge-write
 * so two concurrent PATCHes both land; a terminal session refuses changes because its note is final.
 */
export async function updateSessionContext(app: AppContext, auth: ServicePrincipal, sessionId: string, update: ContextUpdate): Promise<SessionContext> {
  return tenantDb(app, auth).transaction(async (tx) => {
    const row = await tx.find(ambientSessions, eq(ambientSessions.id, sessionId), { forUpdate: true });
    if (!row) throw notFound(`ambient session ${sessionId} not found`);
    if (isTerminal(row.status)) throw conflict(`session is ${row.status}; its context can no longer change`);

    let next: SessionContext;
    if (update.mode === 'replace') {
      next = update.context;
    } else {
      const merged = mergeContext((row.context as Record<string, unknown> | null) ?? {}, update.patch as Record<string, unknown>);
      const parsed = SessionContext.safeParse(merged);
      if (!parsed.success) throw badRequest(zodMessage(parsed.error, 'body'));
      next = parsed.data;
    }
    await checkMedicationOrders(tx, auth, next);
    await tx.update(ambientSessions, { context: next, updatedAt: sql`now()` }, eq(ambientSessions.id, sessionId));
    return next;
  });
}
