import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { ambientSessions } from '../db/schema';
import { systemDb } from '../db/index';

const SYSTEM = 'finalisation worker: one session of any tenant, by id';

/**
 * A lease on one session's finalisation, kept on the session row. Advisory locks would not do: PGlite is one
 * connection, so every caller would share (and re-enter) the same lock. The conditional UPDATE is atomic on
 * both databases; the holder renews it while it works, and a crashed holder's lease lapses so another run
 * can take the session over.
 */
export interface FinaliseLease {
  readonly holder: string;
  /** True while this run still holds the lease (renewal has not found it taken over). */
  held(): Promise<boolean>;
  release(): Promise<void>;
}

/** How long a lease outlives its holder's last renewal (renewed every third of it): Config.finalise.leaseSeconds. */
export function finaliseLeaseSeconds(config: Pick<Config, 'finalise'>): number {
  return config.finalise.leaseSeconds;
}

/** Takes the lease if no one holds it or the holder's lease has lapsed; null when another run holds it. */
export async function acquireFinaliseLease(app: AppContext, sessionId: string): Promise<FinaliseLease | null> {
  const holder = `${os.hostname()}:${process.pid}:${crypto.randomUUID()}`;
  const seconds = finaliseLeaseSeconds(app.config);
  const until = sql`now() + make_interval(secs => ${seconds})`;
  const taken = await systemDb(app, SYSTEM)
    .update(ambientSessions)
    .set({ finalisingBy: holder, finalisingUntil: until })
    .where(and(eq(ambientSessions.id, sessionId), or(isNull(ambientSessions.finalisingUntil), lt(ambientSessions.finalisingUntil, sql`now()`))))
    .returning({ id: ambientSessions.id });
  if (taken.length === 0) return null;

  const mine = and(eq(ambientSessions.id, sessionId), eq(ambientSessions.finalisingBy, holder));
  let lost = false;
  const renew = async (): Promise<boolean> => {
    if (lost) return false;
    const res = await systemDb(app, SYSTEM).update(ambientSessions).set({ finalisingUntil: until }).where(mine).returning({ id: ambientSessions.id });
    lost = res.length === 0;
    if (lost) app.log.warn({ sessionId }, 'finalisation lease was taken over by another run');
    return !lost;
  };
  const timer = setInterval(() => {
    renew().catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'finalisation lease not renewed'));
  }, (seconds * 1000) / 3);
  timer.unref();

  return {
    holder,
    held: renew,
    async release() {
      clearInterval(timer);
      if (lost) return;
      await systemDb(app, SYSTEM).update(ambientSessions).set({ finalisingBy: null, finalisingUntil: null }).where(mine);
    },
  };
}
