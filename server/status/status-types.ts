import type { SQL } from 'drizzle-orm';
import type { SessionStatus } from '@/lib/contracts/session-status';

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
