import { and, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { ckgTransactions } from '../../db/schema';
import { notifyCkgOutcome } from './notify-ckg-outcome';
import { systemDb } from '../../db';

/** Ends a transaction whose processing kept failing for reasons other than its content (the job's last retry). */
export async function failCkgTransaction(app: AppContext, transactionId: string): Promise<void> {
  const error = { code: 'PROCESSING_ERROR', message: 'the ingestion could not be processed; submit it again' };
  const [row] = await systemDb(app, 'CKG worker: marks a transaction of any tenant failed')
    .update(ckgTransactions)
    .set({ state: 'FAILED', error, completedAt: new Date() })
    .where(and(eq(ckgTransactions.id, transactionId), inArray(ckgTransactions.state, ['PENDING', 'PROCESSING'])))
    .returning({ partnerId: ckgTransactions.partnerId });
  if (row) await notifyCkgOutcome(app, row.partnerId, transactionId, 'FAILED', error);
}
