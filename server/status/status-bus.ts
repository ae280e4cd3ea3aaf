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

const SERVICE = 'status.bus';

/** The process's status bus, built from the app context on first use (Next's bundle shares it through ctx.services). */
export function getStatusBus(app: Pick<AppContext, 'services' | 'config' | 'database' | 'log'>): StatusBus {
  let bus = app.services.get(SERVICE) as StatusBus | undefined;
  if (!bus) {
    bus = app.database.kind === 'postgres' && app.config.databaseUrl ? createPgStatusBus(app.config.databaseUrl, app.log) : createLocalStatusBus();
    app.services.set(SERVICE, bus);
  }
  return bus;
}

export async function closeStatusBus(app: Pick<AppContext, 'services'>): Promise<void> {
  const bus = app.services.get(SERVICE) as StatusBus | undefined;
  // A change written during the rest of shutdown must not open a new listener connection.
  app.services.set(SERVICE, createLocalStatusBus());
  await bus?.close();
}
