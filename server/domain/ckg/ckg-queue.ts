import type { AppContext } from '../../context';
import { currentRequestId } from '../../observability/request-context';

export const CKG_QUEUE = 'ckg-process';
export const CKG_JOB_RETRY_LIMIT = 3;

export interface CkgJob {
  transactionId: string;
  /** The ingest request, for log correlation. */
  requestId?: string;
}

export function ensureCkgQueue(app: AppContext): Promise<void> {
  const key = 'ckg.queue-ready';
  let ready = app.services.get(key) as Promise<void> | undefined;
  if (!ready) {
    ready = app.boss.createQueue(CKG_QUEUE, { name: CKG_QUEUE, retryLimit: CKG_JOB_RETRY_LIMIT, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 });
    ready.catch(() => app.services.delete(key));
    app.services.set(key, ready);
  }
  return ready;
}

export async function dispatchCkgTransaction(app: AppContext, transactionId: string): Promise<void> {
  await ensureCkgQueue(app);
  await app.boss.send(CKG_QUEUE, { transactionId, requestId: currentRequestId() } satisfies CkgJob, { retryLimit: CKG_JOB_RETRY_LIMIT, retryDelay: 5, retryBackoff: true });
}
