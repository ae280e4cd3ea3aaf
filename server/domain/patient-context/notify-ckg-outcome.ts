import type { CkgError } from '@/lib/contracts/ckg';
import type { AppContext } from '../../context';
import { enqueueWebhook } from '../../webhooks/enqueue-webhook';
import { buildCkgPayload } from '../../webhooks/payloads';

/** One CKG notification per transaction (event key ckg:<id>), however many times processing runs. */
export async function notifyCkgOutcome(
  app: AppContext,
  partnerId: string,
  transactionId: string,
  state: 'COMPLETED' | 'FAILED' | 'ABORTED',
  error: CkgError | null,
): Promise<void> {
  await enqueueWebhook(app, { partnerId, eventType: 'ckg', eventKey: `ckg:${transactionId}`, body: buildCkgPayload(transactionId, state, error) });
}
