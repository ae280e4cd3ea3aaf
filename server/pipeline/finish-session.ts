import type { AppContext } from '../context';
import { transitionSession } from '../domain/sessions/transition-session';
import { writeSessionWebhookRow } from '../webhooks/enqueue-session-webhook';
import { wakeWebhookWorker, type EnqueuedWebhook } from '../webhooks/enqueue-webhook';

/** How finalisation can end a session. */
export type FinalStatus = 'completed' | 'skipped' | 'failed';

export interface FinishOptions {
  reason: string;
  errorCode?: string;
  errorDetail?: string;
}

/**
 * The one place finalisation ends a session: its terminal status and the partner's webhook outbox row are
 * written in one transaction, so a session is never left terminal without its notification (or notified
 * without the status). A delivery worker is woken once it has committed; a lost wake-up is sent by the
 * outbox sweeper. Already in that status (a re-run): nothing is written.
 */
export async function finishSession(app: AppContext, sessionId: string, to: FinalStatus, opts: FinishOptions): Promise<void> {
  let written: EnqueuedWebhook | null = null;
  await transitionSession(app, sessionId, to, {
    ...opts,
    allowSame: true,
    alsoInTransaction: async (tx) => {
      written = await writeSessionWebhookRow(app, tx, sessionId);
    },
  });
  const row = written as EnqueuedWebhook | null;
  if (row?.created) await wakeWebhookWorker(app, row.deliveryId);
}
