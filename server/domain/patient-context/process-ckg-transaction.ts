import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { FhirBundle, type CkgError } from '@/lib/contracts/ckg';
import type { AppContext } from '../../context';
import { ckgTransactions, patientContext } from '../../db/schema';
import { CkgContentError, extractPatientContext } from './extract-patient-context';
import { notifyCkgOutcome } from './notify-ckg-outcome';
import { systemDb } from '../../db';

export type CkgOutcome = 'COMPLETED' | 'FAILED' | 'ABORTED' | 'skipped';

/**
 * Turns a pending ingestion into the patient's context. Idempotent (a re-delivered job finds the
 * transaction finished and does nothing; a re-run of a half-done one writes the same snapshot).
 *
 * A bundle is a snapshot of the patient's EMR data, so the context is replaced, not merged. Snapshots
 * must not go backwards: if a later ingestion for the same patient has already completed, this one ends
 * ABORTED. The check and the write happen under a per-patient lock so two snapshots cannot interleave.
 */
export async function processCkgTransaction(app: AppContext, transactionId: string): Promise<CkgOutcome> {
  const [tx] = await systemDb(app, 'CKG worker: transactions of every tenant')
    .update(ckgTransactions)
    .set({ state: 'PROCESSING' })
    .where(and(eq(ckgTransactions.id, transactionId), inArray(ckgTransactions.state, ['PENDING', 'PROCESSING'])))
    .returning();
  if (!tx) return 'skipped';

  let state: Exclude<CkgOutcome, 'skipped'>;
  let error: CkgError | null = null;
  try {
    const bundle = FhirBundle.parse(tx.bundle);
    const extracted = extractPatientContext(bundle);
    state = await systemDb(app, 'CKG worker: transactions of every tenant').transaction(async (db) => {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`ckg:${tx.partnerId}:${tx.emrPatientId}`}))`);
      const newer = await db
        .select({ id: ckgTransactions.id })
        .from(ckgTransactions)
        .where(
          and(
            eq(ckgTransactions.partnerId, tx.partnerId),
            eq(ckgTransactions.emrPatientId, tx.emrPatientId),
            eq(ckgTransactions.state, 'COMPLETED'),
            gt(ckgTransactions.createdAt, tx.createdAt),
          ),
        )
        .limit(1);
      if (newer[0]) {
        error = { code: 'SUPERSEDED', message: `a later ingestion for this patient (${newer[0].id}) completed first; this snapshot was not applied` };
        await finish(db, transactionId, 'ABORTED', error);
        return 'ABORTED' as const;
      }
      const values = { medications: extracted.medications, problems: extracted.problems, allergies: extracted.allergies, updatedAt: new Date() };
      await db
        .insert(patientContext)
        .values({ partnerId: tx.partnerId, emrPatientId: tx.emrPatientId, ...values })
        .onConflictDoUpdate({ target: [patientContext.partnerId, patientContext.emrPatientId], set: values });
      await finish(db, transactionId, 'COMPLETED', null);
      return 'COMPLETED' as const;
    });
  } catch (err) {
    if (!(err instanceof CkgContentError)) throw err;
    state = 'FAILED';
    error = err.error;
    await finish(systemDb(app, 'CKG worker: transactions of every tenant'), transactionId, 'FAILED', error);
  }

  app.log.info({ transactionId, partnerId: tx.partnerId, state, ...(error ? { errorCode: (error as CkgError).code } : {}) }, 'CKG transaction finished');
  await notifyCkgOutcome(app, tx.partnerId, transactionId, state, error);
  return state;
}

type Writer = Pick<AppContext['db'], 'update'>;

async function finish(db: Writer, transactionId: string, state: string, error: CkgError | null): Promise<void> {
  await db
    .update(ckgTransactions)
    .set({ state, error, completedAt: new Date() })
    .where(and(eq(ckgTransactions.id, transactionId), eq(ckgTransactions.state, 'PROCESSING')));
}
