import { sql } from 'drizzle-orm';
import { recordings } from '../db/schema';
import { systemDb, type Db, type DbOwner } from '../db/index';

/**
 * Reports that arrive within this window share one UPDATE. Every open stream reports every 2 s; at
 * hundreds of streams per process one statement per report was a fifth of the server's CPU.
 */
export const DURABLE_BATCH_MS = 100;

interface Batch {
  bytes: Map<string, number>;
  waiters: { resolve: () => void; reject: (err: unknown) => void }[];
}

const pending = new WeakMap<object, Batch>();

/**
 * Records how much of an open recording is durably stored, so a crash loses nothing that was ACKed.
 * Only raises the count of a recording that is still open: a report whose batch lands after the close
 * (which writes the final count itself) changes nothing. The time of the raise (durable_at) is the stream's
 * last sign of life that every process can read (the abandoned-visit sweep). Resolves once the report's batch is committed.
 */
export function recordDurableBytes(app: DbOwner, recordingId: string, bytes: number): Promise<void> {
  // One batch per database: the reports of every tenant's streams share its UPDATE (each recording was opened in its caller's scope).
  const db = systemDb(app, "recordings: durable-byte reports of streams whose sessions were found in their callers' scopes");
  let batch = pending.get(db);
  if (!batch) {
    const fresh: Batch = { bytes: new Map(), waiters: [] };
    pending.set(db, (batch = fresh));
    setTimeout(() => {
      pending.delete(db);
      void writeBatch(db, fresh);
    }, DURABLE_BATCH_MS).unref();
  }
  batch.bytes.set(recordingId, Math.max(bytes, batch.bytes.get(recordingId) ?? 0));
  return new Promise<void>((resolve, reject) => batch.waiters.push({ resolve, reject }));
}

async function writeBatch(db: Db, batch: Batch): Promise<void> {
  const rows = [...batch.bytes].map(([id, bytes]) => sql`(${id}::uuid, ${bytes}::bigint)`);
  try {
    await db.execute(sql`
      update ${recordings} set durable_bytes = v.bytes, durable_at = now()
      from (values ${sql.join(rows, sql`, `)}) as v(id, bytes)
      where ${recordings.id} = v.id and ${recordings.endedAt} is null and ${recordings.durableBytes} < v.bytes`);
    for (const w of batch.waiters) w.resolve();
  } catch (err) {
    for (const w of batch.waiters) w.reject(err);
  }
}
