import { isApiError } from '@/lib/errors';
import { ABANDONED_REASON } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import { acquireFinaliseLease } from '../../pipeline/finalise-lease';
import { enqueueFinalisation } from '../../jobs/finalise-queue';
import { findAbandonedSessions } from './find-abandoned-sessions';
import { transitionSession } from './transition-session';

/** `active`: a stream came back (or the visit ended) since the sweep looked; `busy`: another run holds the session. */
export type AbandonOutcome = 'abandoned' | 'active' | 'busy';

/**
 * Ends a visit whose client went away, as an EOF would: the session becomes running with the reason
 * `abandoned` (session_transitions), and the finalisation job is queued, so the transcript, note, "Needs
 * review" and the partner's webhook follow the one completion path. Several sweepers may pick the same
 * session: the finalisation lease lets one look at a time, and the conditional status change lets one win.
 */
export async function abandonSession(app: AppContext, sessionId: string): Promise<AbandonOutcome> {
  const lease = await acquireFinaliseLease(app, sessionId);
  if (!lease) return 'busy';
  try {
    // Looked at again under the lease: a reconnect since the sweep's query continues the visit as before.
    const still = await findAbandonedSessions(app, { afterMs: app.config.abandoned.afterMs, sessionId });
    if (still.length === 0) return 'active';
    await transitionSession(app, sessionId, 'running', { reason: ABANDONED_REASON });
  } catch (err) {
    // Another writer moved the session first (an EOF, a REST end or abort): it is no longer abandoned.
    if (isApiError(err) && err.status === 409) return 'active';
    throw err;
  } finally {
    await lease.release().catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'finalisation lease not released'));
  }
  // Queued once the lease is free, so the finalisation job can take it at once.
  await enqueueFinalisation(app, sessionId);
  app.log.info({ sessionId, afterMs: app.config.abandoned.afterMs }, 'abandoned visit ended; finalising from the stored audio');
  return 'abandoned';
}
