import { and, eq, lt, lte, or } from 'drizzle-orm';
import type { AppContext } from '../context';
import { webhookDeliveries } from '../db/schema';
import { dispatchDelivery } from './queues';
import { systemDb } from '../db';

/**
 * Re-queues deliveries that are due but have no job in flight (a crash between writing the outbox row
 * and queueing, a job lost with its process, a claim held by a worker that died). `graceMs` leaves
 * recently due rows to the job that was queued for them; a duplicate would only find nothing to do.
 */
export async function sweepDueDeliveries(app: AppContext, graceMs: number, limit = 200): Promise<number> {
  const now = Date.now();
  const rows = await systemDb(app, "webhook outbox sweeper: every tenant's deliveries")
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      or(
        and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, new Date(now - graceMs))),
        and(eq(webhookDeliveries.status, 'delivering'), lt(webhookDeliveries.leaseUntil, new Date(now))),
      ),
    )
    .limit(limit);
  for (const r of rows) await dispatchDelivery(app, r.id);
  if (rows.length > 0) app.log.info({ count: rows.length }, 'webhook sweeper re-queued due deliveries');
  return rows.length;
}
