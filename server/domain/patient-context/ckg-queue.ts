import type { AppContext } from '../../context';
import { sendJob } from '../../jobs/send-job';
import { currentRequestId } from '../../observability/request-context';

/** Created at start with the worker's options (ckg-worker.ts), in every process. */
export const CKG_QUEUE = 'ckg-process';
export const CKG_JOB_RETRY_LIMIT = 3;

export interface CkgJob {
  transactionId: string;
  /** The ingest request, for log correlation. */
  requestId?: string;
}

export async function dispatchCkgTransaction(app: AppContext, transactionId: string): Promise<void> {
  await sendJob(app, CKG_QUEUE, { transactionId, requestId: currentRequestId() } satisfies CkgJob, { retryLimit: CKG_JOB_RETRY_LIMIT, retryDelay: 5, retryBackoff: true });
}
