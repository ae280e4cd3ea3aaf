import { eq } from 'drizzle-orm';
import { isTerminal } from '@/lib/contracts/session-status';
import type { AppContext } from '../context';
import { systemDb } from '../db/index';
import { ambientSessions } from '../db/schema';
import { timeStage } from '../observability/metrics';
import { acquireFinaliseLease, type FinaliseLease } from './finalise-lease';
import { FinaliseError } from './finalise-error';
import { FINALISE_STAGES, type FinaliseRun } from './finalise-stages';

export { FinaliseError };

/** `busy`: another run holds the session's finalisation lease and will finish it (or its lease lapses). */
export type FinaliseOutcome = 'completed' | 'skipped' | 'unchanged' | 'busy';

/** This run's lease lapsed and another run took the session over: it must not write its results. */
class LeaseLost extends Error {}

/**
 * Audio → final transcript → speaker roles → note → completed (or skipped): the stages of
 * finalise-stages.ts, in order. One run per session at a time, in any process, under a lease on the
 * session row; a second run answers `busy`. Idempotent: every write replaces the previous run's, so a
 * re-run after a crash at any point leaves one result.
 */
export async function finaliseSession(app: AppContext, sessionId: string): Promise<FinaliseOutcome> {
  const lease = await acquireFinaliseLease(app, sessionId);
  if (!lease) return 'busy';
  try {
    // Read under the lease: a run that finished while this one waited has left the session terminal.
    const db = systemDb(app, 'finalisation worker: one session of any tenant, by id');
    const session = (await db.select().from(ambientSessions).where(eq(ambientSessions.id, sessionId)).limit(1))[0];
    if (!session || isTerminal(session.status) || session.status === 'created') return 'unchanged';
    return await runStages(app, session, lease);
  } catch (err) {
    if (err instanceof LeaseLost) return 'busy';
    throw err;
  } finally {
    await lease.release().catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'finalisation lease not released'));
  }
}

async function runStages(app: AppContext, session: FinaliseRun['session'], lease: FinaliseLease): Promise<FinaliseOutcome> {
  const keepLease = async () => {
    if (!(await lease.held())) throw new LeaseLost();
  };
  const run: FinaliseRun = { app, session, keepLease, recs: [], segments: [], roles: [], lines: [] };
  for (const stage of FINALISE_STAGES) {
    // After a stage has decided the outcome, only `complete` (which writes it) still runs.
    if (run.outcome && stage.name !== 'complete') continue;
    const started = performance.now();
    await timeStage(app, stage.name, () => stage.run(run));
    // Ids and timings only: no transcript or note text.
    app.log.debug({ sessionId: session.id, stage: stage.name, ms: Math.round(performance.now() - started) }, 'finalisation stage done');
  }
  return run.outcome?.status === 'skipped' ? 'skipped' : 'completed';
}
