import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { destroyListenSocket, newListenClient, type ListenClient } from '../db';
import type { Logger } from '../logger';
import type { StatusBus, StatusChange } from './status-types';
import { STATUS_CHANNEL, StatusFanout } from './fanout';

/** How the listening connection names itself in pg_stat_activity (operators, and the stale-listener test). */
export const LISTENER_APPLICATION_NAME = 'ambient-status-listener';

export interface PgStatusBusOptions {
  /** TCP keepalive on the listening connection starts after this much quiet. */
  keepAliveMs: number;
  /** A self-NOTIFY is sent this often; one not heard back within two more marks the bus not live. */
  heartbeatMs: number;
}

/**
 * LISTEN/NOTIFY on one dedicated connection. The NOTIFY is issued inside the status change's transaction, so
 * it is sent exactly when the change commits, and never for a change rolled back. While the listening
 * connection is down, changes may be missed: the bus reports `lost` and is not live until it listens again.
 *
 * A connection can also go silent without closing (a stopped backend, or a NAT or load balancer that forgot
 * it): nothing arrives and nothing fails, and the cache would answer stale statuses for ever (issue 26: 21 s
 * and counting). TCP keepalive finds a dead peer eventually; the heartbeat finds any silence within three
 * intervals: the bus sends itself a NOTIFY on its own channel through this connection, and when one is not
 * heard back within two more beats, the connection is dropped and made again, the bus not live meanwhile.
 */
export function createPgStatusBus(databaseUrl: string, log: Logger, opts: PgStatusBusOptions): StatusBus {
  const fanout = new StatusFanout();
  // Each process beats on its own channel, so no process hears another's heartbeats.
  const heartbeatChannel = `ambient_status_hb_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
  let client: ListenClient | undefined;
  let drop: ((why: string) => void) | undefined;
  let connectingSince = 0;
  let live = false;
  let closed = false;
  let retryMs = 250;
  /** The payload of the heartbeat sent and not yet heard back, and how many beats have found it so. */
  let awaiting: string | null = null;
  let missed = 0;
  let beats = 0;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = newListenClient({
      databaseUrl,
      keepAliveMs: opts.keepAliveMs,
      applicationName: LISTENER_APPLICATION_NAME,
      connectTimeoutMs: Math.max(2 * opts.heartbeatMs, 1000),
    });
    const down = (why: string) => {
      if (client !== c) return;
      client = undefined;
      drop = undefined;
      live = false;
      awaiting = null;
      missed = 0;
      fanout.lost();
      c.end().catch(() => {});
      destroyListenSocket(c);
      if (closed) return;
      log.warn({ reason: why }, 'status listener disconnected; reconnecting');
      setTimeout(() => void connect(), retryMs).unref();
      retryMs = Math.min(retryMs * 2, 10_000);
    };
    client = c;
    drop = down;
    connectingSince = Date.now();
    c.on('error', (err) => down(err.message));
    c.on('end', () => down('connection ended'));
    c.on('notification', (msg) => {
      if (msg.channel === heartbeatChannel) {
        if (msg.payload === awaiting) {
          awaiting = null;
          missed = 0;
        }
        return;
      }
      if (msg.channel !== STATUS_CHANNEL || !msg.payload) return;
      try {
        fanout.emit(JSON.parse(msg.payload) as StatusChange);
      } catch {
        log.warn('unreadable status notification ignored');
      }
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${STATUS_CHANNEL}`);
      await c.query(`LISTEN ${heartbeatChannel}`);
      if (client === c) {
        live = true;
        retryMs = 250;
      }
    } catch (err) {
      down((err as Error).message);
    }
  };

  const heartbeat = setInterval(() => {
    const c = client;
    if (!c || !drop) return;
    if (!live) {
      // A connection attempt that hangs (LISTEN never answered) is given up and made again.
      if (Date.now() - connectingSince > 2 * opts.heartbeatMs) drop('listener did not come up');
      return;
    }
    // Two beats, not one: after the event loop was blocked, timers run before the socket is read, so the
    // first beat may find an answer that has arrived but is not read yet.
    if (awaiting !== null) {
      if (++missed >= 2) drop('heartbeat not heard back');
      return;
    }
    const payload = String(++beats);
    awaiting = payload;
    c.query('select pg_notify($1, $2)', [heartbeatChannel, payload]).catch((err: Error) => {
      if (client === c) drop?.(err.message);
    });
  }, opts.heartbeatMs);
  heartbeat.unref();
  void connect();

  return {
    get live() {
      return live;
    },
    notifySql: (change) => sql`select pg_notify(${STATUS_CHANNEL}, ${JSON.stringify(change)})`,
    // This process hears its own NOTIFY too; the repeat carries the same seq and changes nothing.
    committed: (change) => fanout.emit(change),
    subscribe: (l, onLost) => fanout.subscribe(l, onLost),
    async close() {
      closed = true;
      live = false;
      clearInterval(heartbeat);
      const c = client;
      client = undefined;
      drop = undefined;
      if (!c) return;
      // Bounded: a silent peer would never answer the goodbye, and shutdown must not wait on it.
      await Promise.race([c.end().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      destroyListenSocket(c);
    },
  };
}
