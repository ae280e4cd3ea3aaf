import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { ambientSessions } from '../db/schema';
import { wakeWebhookWorker, writeWebhookRow, type EnqueuedWebhook, type OutboxDb } from './enqueue-webhook';
import { buildSessionNotification } from './payloads';
import { systemDb, tenantDb, type Db } from '../db';

/**
 * Queues the partner notification for a session that has reached its outcome: completed → SUCCESS,
 * failed or skipped → FAILURE (skipped with error_code SKIPPED_INSUFFICIENT_AUDIO). Aborted and
 * non-terminal sessions get none (null). Idempotent: the event key is `session:<id>:<status>`, so a
 * re-run of finalisation does not notify twice.
 */
export async function enqueueSessionWebhook(app: AppContext, sessionId: string): Promise<EnqueuedWebhook | null> {
  const written = await writeSessionWebhookRow(app, systemDb(app, "webhook outbox: the session's own partner"), sessionId);
  if (written?.created) await wakeWebhookWorker(app, written.deliveryId);
  return written;
}

/** The session's outbox row alone, in `db` (the transaction of its terminal status change); wakeWebhookWorker once committed. */
export async function writeSessionWebhookRow(app: AppContext, db: OutboxDb, sessionId: string): Promise<EnqueuedWebhook | null> {
  const session = (await db.select().from(ambientSessions).where(eq(ambientSessions.id, sessionId)).limit(1))[0];
  if (!session) throw new Error(`session ${sessionId} not found`);
  // The encounter's sessions of the session's own partner: its scope, not a hand-written partner filter.
  const siblings = await tenantDb({ db: db as Db }, { kind: 'partner', partnerId: session.partnerId })
    .select(ambientSessions, { id: ambientSessions.id }, eq(ambientSessions.encounterId, session.encounterId))
    .orderBy(asc(ambientSessions.createdAt), asc(ambientSessions.id));
  const built = buildSessionNotification(app.config.publicBaseUrl, session, siblings.map((s) => s.id));
  if (!built) {
    app.log.debug({ sessionId, status: session.status }, 'no webhook for this session status');
    return null;
  }
  return writeWebhookRow(app, db, {
    partnerId: session.partnerId,
    sessionId,
    eventType: built.eventType,
    eventKey: `session:${sessionId}:${session.status}`,
    body: built.payload,
  });
}
