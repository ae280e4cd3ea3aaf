import type { CkgIngestRequest } from '@/lib/contracts/ckg';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { ckgTransactions } from '../../db/schema';
import { dispatchCkgTransaction } from './ckg-queue';

/** Records the ingestion and queues its processing; the caller polls the transaction or waits for the CKG webhook. */
export async function ingestCkgBundle(app: AppContext, auth: ServicePrincipal, input: CkgIngestRequest): Promise<{ transaction_id: string }> {
  const [row] = await tenantDb(app, auth).insert(ckgTransactions, {
    partnerId: auth.partnerId,
    providerId: auth.providerId,
    emrPatientId: input.emr_patient_id,
    state: 'PENDING',
    bundle: input.bundle,
  });
  const id = row!.id;
  await dispatchCkgTransaction(app, id).catch((err: Error) =>
    app.log.warn({ transactionId: id, err: err.message }, 'CKG job not queued; the CKG sweeper will process it'),
  );
  app.log.info({ transactionId: id, partnerId: auth.partnerId, entries: input.bundle.entry?.length ?? 0 }, 'CKG ingestion accepted');
  return { transaction_id: id };
}
