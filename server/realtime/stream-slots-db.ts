import crypto from 'node:crypto';
import os from 'node:os';
import { and, count, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { streamSlots } from '../db/schema';
import type { Logger } from '../logger';
import { capFull, partnerCapKey, providerCapKey, type StreamHolder, type StreamLimits, type StreamSlot, type StreamSlots } from './stream-slots';

export interface DbStreamSlotsOptions {
  db: Db;
  log: Logger;
  limits: StreamLimits;
  /** How long a slot outlives its process's last renewal (renewed every third of it). */
  leaseSeconds?: number;
}

/**
 * Stream caps in the stream_slots table (PGlite or PostgreSQL). Each acquire runs in a transaction that
 * takes advisory locks on the provider's and the partner's cap, always in that order, so two processes
 * cannot both see room for the last slot, and no two acquires wait on each other in a cycle. This process
 * renews the leases of the slots it holds; if it is killed they lapse and stop counting.
 */
export function createDbStreamSlots(opts: DbStreamSlotsOptions): StreamSlots {
  const { db, log, limits } = opts;
  const leaseSeconds = opts.leaseSeconds ?? 30;
  const holderId = `${os.hostname()}:${process.pid}:${crypto.randomUUID()}`;
  const held = new Set<string>();
  const expiry = sql`now() + make_interval(secs => ${leaseSeconds})`;

  const renew = async () => {
    if (held.size === 0) return;
    await db.update(streamSlots).set({ expiresAt: expiry }).where(inArray(streamSlots.slotId, [...held]));
  };
  const timer = setInterval(() => {
    renew().catch((err: Error) => log.warn({ err: err.message }, 'stream slot leases not renewed'));
  }, (leaseSeconds * 1000) / 3);
  timer.unref();

  const countOpen = async (capKey: string, tx: Pick<Db, 'select'> = db) => {
    const [row] = await tx
      .select({ n: count() })
      .from(streamSlots)
      .where(and(eq(streamSlots.capKey, capKey), gt(streamSlots.expiresAt, sql`now()`)));
    return Number(row?.n ?? 0);
  };

  const release = async (slotId: string) => {
    if (!held.delete(slotId)) return;
    try {
      await db.delete(streamSlots).where(eq(streamSlots.slotId, slotId));
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'stream slot not released; it lapses with its lease');
    }
  };

  return {
    async acquire(holder: StreamHolder): Promise<StreamSlot> {
      const keys = [providerCapKey(holder.providerId), partnerCapKey(holder.partnerId)];
      const slotId = crypto.randomUUID();
      await db.transaction(async (tx) => {
        for (const key of keys) await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'stream-slots|' + key}))`);
        await tx.delete(streamSlots).where(and(inArray(streamSlots.capKey, keys), lte(streamSlots.expiresAt, sql`now()`)));
        const [provider, partner] = [await countOpen(keys[0], tx), await countOpen(keys[1], tx)];
        if (limits.perProvider > 0 && provider >= limits.perProvider) throw capFull('provider', provider);
        if (limits.perPartner > 0 && partner >= limits.perPartner) throw capFull('partner', partner);
        await tx.insert(streamSlots).values(keys.map((capKey) => ({ slotId, capKey, holder: holderId, expiresAt: expiry })));
      });
      held.add(slotId);
      return { release: () => release(slotId) };
    },

    count: (key) => countOpen('providerId' in key ? providerCapKey(key.providerId) : partnerCapKey(key.partnerId)),

    async close() {
      clearInterval(timer);
      held.clear();
      await db.delete(streamSlots).where(eq(streamSlots.holder, holderId));
    },
  };
}
