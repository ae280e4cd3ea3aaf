import { conflict } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { enqueueFinalisation } from '../../jobs/finalise-queue';
import { getOwnedSession } from './get-owned-session';
import { transitionSession } from './transition-session';

/**
 * Ends audio capture, as the stream's EOF does: the session becomes running and the finalisation job
 * is queued. A session that never streamed passes through ready so the pipeline can mark it skipped.
 * Ending a running session again only re-queues the (singleton) job, so a retried request is harmless.
 */
export async function endSession(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<{ status: 'running' }> {
  const session = await getOwnedSession(app, auth, sessionId);
  if (isTerminal(session.status)) throw conflict(`session is ${session.status}; it has already ended`);
  if (session.status === 'created') {
    await transitionSession(app, session.id, 'ready', { reason: 'ended through the API before any audio', allowSame: true });
  }
  await transitionSession(app, session.id, 'running', { reason: 'ended through the API', allowSame: true });
  await enqueueFinalisation(app, session.id);
  return { status: 'running' };
}
