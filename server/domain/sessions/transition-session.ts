import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '@/lib/errors';
import { canTransition, type SessionStatus } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import { systemDb, type Db } from '../../db';
import { getStatusBus, type StatusChange } from '../../status/status-bus';
import { ambientSessions, sessionTransitions } from '../../db/schema';

/** The transaction a status change is written in. */
export type StatusTx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface TransitionOptions {
  reason?: string;
  errorCode?: string;
  errorDetail?: string;
  /** Treat "already in the target state" as success (idempotent jobs and reconnects). */
  allowSame?: boolean;
  /** Written in the same transaction as the change, after it (a terminal status's webhook outbox row). */
  alsoInTransaction?: (tx: StatusTx) => Promise<void>;
}

/**
 * The running app publishes each change; a bare database handle (a tool or test writing to a stopped
 * server's database) publishes nothing, since no process is serving that database's status.
 */
export type TransitionTarget = Pick<AppContext, 'db' | 'services' | 'config' | 'database' | 'log'> | Db;

export interface TransitionResult {
  from: SessionStatus;
  to: SessionStatus;
  changed: boolean;
}

/**
 * The one place session status changes. The update is conditional on the status read, so two racing
 * writers cannot both move the session; every change is recorded with its time and published on the status
 * bus (PostgreSQL: NOTIFY in the same transaction, so it is sent exactly when the change commits).
 */
export async function transitionSession(app: TransitionTarget, sessionId: string, to: SessionStatus, opts: TransitionOptions = {}): Promise<TransitionResult> {
  // A session found through the scope (requests), or by a job: the change itself reads by id alone.
  const db = 'services' in app ? systemDb(app, 'status change of a session found through the scope, or by a job') : app;
  const bus = 'services' in app ? getStatusBus(app) : undefined;
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
        .returning({ providerId: ambientSessions.providerId, partnerId: ambientSessions.partnerId });
      if (res.length === 0) return null;
      const [t] = await tx
        .insert(sessionTransitions)
        .values({ sessionId, fromStatus: from, toStatus: to, reason: opts.reason ?? null })
        .returning({ id: sessionTransitions.id });
      const change: StatusChange = { sessionId, status: to, providerId: res[0]!.providerId, partnerId: res[0]!.partnerId, seq: Number(t!.id) };
      const notify = bus?.notifySql(change);
      if (notify) await tx.execute(notify);
      await opts.alsoInTransaction?.(tx);
      return change;
    });
    if (updated) {
      bus?.committed(updated);
      return { from, to, changed: true };
    }
  }
  throw conflict(`session ${sessionId} changed concurrently; retry`);
}
