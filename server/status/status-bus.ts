import type { SQL } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { SessionStatus } from '@/lib/contracts/session-status';
import { createPgStatusBus } from './pg-status-bus';
import { StatusFanout } from './fanout';

export { STATUS_CHANNEL } from './fanout';

/** One committed status change. `seq` is its session_transitions id: later changes of a session are larger. */
export interface StatusChange {
  sessionId: string;
  status: SessionStatus;
  providerId: string;
  partnerId: string;
  seq: number;
}

export type StatusListener = (change: StatusChange) => void;

/**
 * Carries session status changes to every process that serves status: in-process on PGlite (one process),
 * LISTEN/NOTIFY on PostgreSQL so every web process hears every worker.
 */
export interface StatusBus {
  /** The SQL to run inside the transaction that changes the status (PostgreSQL sends it on commit), or null. */
  notifySql(change: StatusChange): SQL | null;
  /** After commit: this process's listeners hear the change at once, without waiting for the round trip. */
  committed(change: StatusChange): void;
  /** Every change; the callback is also told when changes may have been missed (`lost`), so caches drop what they hold. */
  subscribe(listener: StatusListener, onLost?: () => void): () => void;
  /** False while changes from other processes might go unheard (listener connection down). */
  readonly live: boolean;
  close(): Promise<void>;
}

function createLocalStatusBus(): StatusBus {
  const fanout = new StatusFanout();
  return {
    live: true,
    notifySql: () => null,
    committed: (change) => fanout.emit(change),
    subscribe: (l, onLost) => fanout.subscribe(l, onLost),
    close: async () => {},
  };
}

/** LISTEN/NOTIFY on PostgreSQL, in-process on PGlite; built once at start by server/services.ts. */
export function createStatusBus(app: Pick<AppContext, 'config' | 'database' | 'log'>): StatusBus {
  return app.database.kind === 'postgres' && app.config.databaseUrl ? createPgStatusBus(app.config.databaseUrl, app.log, app.config.statusBus) : createLocalStatusBus();
}

export function getStatusBus(app: Pick<AppContext, 'services'>): StatusBus {
  return app.services.statusBus;
}

export async function closeStatusBus(app: Pick<AppContext, 'services'>): Promise<void> {
  const bus = app.services.statusBus;
  // A change written during the rest of shutdown must not open a new listener connection.
  app.services.statusBus = createLocalStatusBus();
  await bus.close();
}
