import { and, eq, exists, gt, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { ambientSessions, recordings } from '../../db/schema';
import { systemDb } from '../../db';

/**
 * An open recording is trusted to be fed for this long past the idle timeout: a stream records its durable
 * length every 2 s while audio arrives, and is closed after WS_IDLE_TIMEOUT_MS without a frame, so an open
 * recording silent for longer belongs to a process that died (kill -9) and will never close it.
 */
const OPEN_STREAM_MARGIN_MS = 10_000;

const secondsAgo = (ms: number): SQL => sql`now() - make_interval(secs => ${ms / 1000})`;

export interface FindAbandonedOptions {
  /** No sign of life from the session's recordings for this long (Config.abandoned.afterMs). */
  afterMs: number;
  /** Look at this session only (the re-check under the finalisation lease). */
  sessionId?: string;
  limit?: number;
}

/**
 * Sessions whose client went away mid-visit, in any process: still `ready` (no EOF and no REST end), with
 * stored audio, and no recording with a sign of life within `afterMs`. A recording's last sign of life is
 * the latest of its opening, its last durable-bytes report (durable_at, the last ACKed audio) and its close;
 * the database's clock judges them all, so web processes and workers on other machines agree.
 */
export async function findAbandonedSessions(app: Pick<AppContext, 'db' | 'config'>, opts: FindAbandonedOptions): Promise<string[]> {
  const openQuietMs = Math.max(opts.afterMs, app.config.ws.idleTimeoutMs + OPEN_STREAM_MARGIN_MS);
  const ofSession = eq(recordings.sessionId, ambientSessions.id);
  const lastSign = sql`greatest(${recordings.createdAt}, ${recordings.durableAt}, ${recordings.endedAt})`;
  const rows = await systemDb(app, 'abandoned-visit sweep (a job): sessions of every tenant')
    .select({ id: ambientSessions.id })
    .from(ambientSessions)
    .where(
      and(
        eq(ambientSessions.status, 'ready'),
        opts.sessionId ? eq(ambientSessions.id, opts.sessionId) : undefined,
        exists(systemDb(app, 'abandoned-visit sweep (a job): sessions of every tenant').select({ one: sql`1` }).from(recordings).where(and(ofSession, gt(recordings.durableBytes, 0)))),
        notExists(
          systemDb(app, 'abandoned-visit sweep (a job): sessions of every tenant')
            .select({ one: sql`1` })
            .from(recordings)
            .where(and(ofSession, or(gt(lastSign, secondsAgo(opts.afterMs)), and(isNull(recordings.endedAt), gt(lastSign, secondsAgo(openQuietMs)))))),
        ),
      ),
    )
    .limit(opts.limit ?? 100);
  return rows.map((r) => r.id);
}
