import { and, inArray, lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { ckgTransactions } from '../../db/schema';
import { dispatchCkgTransaction } from './ckg-queue';
import { systemDb } from '../../db';

/** Re-queues transactions left unfinished (a job lost with a crashed process); processing is idempotent. */
export async function sweepCkgTransactions(app: AppContext, olderThanMs: number): Promise<number> {
  const rows = await systemDb(app, 'CKG sweeper: transactions of every tenant')
    .select({ id: ckgTransactions.id })
    .from(ckgTransactions)
    .where(and(inArray(ckgTransactions.state, ['PENDING', 'PROCESSING']), lt(ckgTransactions.createdAt, new Date(Date.now() - olderThanMs))))
    .limit(100);
  for (const r of rows) await dispatchCkgTransaction(app, r.id);
  if (rows.length > 0) app.log.info({ count: rows.length }, 'CKG sweeper re-queued unfinished transactions');
  return rows.length;
}
