import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { CkgError, CkgTransaction, CkgTransactionState } from '@/lib/contracts/ckg';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ckgTransactions } from '../../db/schema';
import type { Scoped } from '../scope/scope';

/** Scoped to the caller's partner: another partner's transaction answers the same 404 as a missing one. */
export async function getCkgTransaction(app: AppContext, auth: Scoped, transactionId: string): Promise<CkgTransaction> {
  const row = (
    await tenantDb(app, auth).select(ckgTransactions, {
        id: ckgTransactions.id,
        state: ckgTransactions.state,
        emrPatientId: ckgTransactions.emrPatientId,
        error: ckgTransactions.error,
        createdAt: ckgTransactions.createdAt,
        completedAt: ckgTransactions.completedAt,
      }, eq(ckgTransactions.id, transactionId))
      .limit(1)
  )[0];
  if (!row) throw notFound(`CKG transaction ${transactionId} not found`);
  return {
    transaction_id: row.id,
    state: row.state as CkgTransactionState,
    emr_patient_id: row.emrPatientId,
    created_at: row.createdAt.toISOString(),
    ...(row.completedAt ? { completed_at: row.completedAt.toISOString() } : {}),
    ...(row.error ? { error: row.error as CkgError } : {}),
  };
}
