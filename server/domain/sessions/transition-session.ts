import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import { canTransition, type SessionStatus } from '@/lib/contracts/session-status';
import type { Db } from '../../db/client';
import { ambientSessions, sessionTransitions } from '../../db/schema';

export interface TransitionOptions {
  reason?: string;
  errorCode?: string;
  errorDetail?: string;
  /** Treat "already in the target state" as success (idempotent jobs and reconnects). */
  allowSame?: boolean;
}

export interface TransitionResult {
  from: SessionStatus;
  to: SessionStatus;
  changed: boolean;
}

/**
 * The one place session status changes. The update is conditional on the status read, so two racing
 * writers cannot both move the session; every change is recorded with its time.
 */
export async function transitionSession(db: Db, sessionId: string, to: SessionStatus, opts: TransitionOptions = {}): Promise<TransitionResult> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = (await db.select({ status: ambientSessions.status }).from(ambientSessions).where(eq(ambientSessions.id, sessionId)).limit(1))[0];
    if (!row) throw notFound(`session ${sessionId} not found`);
    const from = row.status as SessionStatus;
    if (from === to && opts.allowSame) return { from, to, changed: false };
    if (!canTransition(from, to)) throw conflict(`session is ${from}; it cannot become ${to}`);
    const updated = await db.transaction(async (tx) => {
      const res = await tx
        .update(ambientSessions)
        .set({
          status: to,
          updatedAt: new Date(),
          ...(opts.errorCode !== undefined ? { errorCode: opts.errorCode, errorDetail: opts.errorDetail ?? null } : {}),
          ...(to === 'ready' ? { startedAt: new Date() } : {}),
        })
        .where(and(eq(ambientSessions.id, sessionId), eq(ambientSessions.status, from)))
        .returning({ id: ambientSessions.id });
      if (res.length === 0) return false;
      await tx.insert(sessionTransitions).values({ sessionId, fromStatus: from, toStatus: to, reason: opts.reason ?? null });
      return true;
    });
    if (updated) return { from, to, changed: true };
  }
  throw conflict(`session ${sessionId} changed concurrently; retry`);
}
