import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Logger } from '../logger';
import type { StatusBus, StatusChange } from './status-bus';
import { STATUS_CHANNEL, StatusFanout } from './fanout';

/**
 * LISTEN/NOTIFY on one dedicated connection. The NOTIFY is issued inside the status change's transaction, so
 * it is sent exactly when the change commits, and never for a change rolled back. While the listening
 * connection is down, changes may be missed: the bus reports `lost` and is not live until it listens again.
 */
export function createPgStatusBus(databaseUrl: string, log: Logger): StatusBus {
  const fanout = new StatusFanout();
  let client: pg.Client | undefined;
  let live = false;
  let closed = false;
  let retryMs = 250;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl });
    const down = (why: string) => {
      if (client !== c) return;
      client = undefined;
      live = false;
      fanout.lost();
      c.end().catch(() => {});
      if (closed) return;
      log.warn({ reason: why }, 'status listener disconnected; reconnecting');
      setTimeout(() => void connect(), retryMs).unref();
      retryMs = Math.min(retryMs * 2, 10_000);
    };
    client = c;
    c.on('error', (err) => down(err.message));
    c.on('end', () => down('connection ended'));
    c.on('notification', (msg) => {
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
      if (client === c) {
        live = true;
        retryMs = 250;
      }
    } catch (err) {
      down((err as Error).message);
    }
  };
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
      const c = client;
      client = undefined;
      await c?.end().catch(() => {});
    },
  };
}
