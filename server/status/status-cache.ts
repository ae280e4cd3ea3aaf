import { isTerminal, type SessionStatus } from '@/lib/contracts/session-status';
import type { StatusBus, StatusChange } from './status-types';

export type CachedStatus = Omit<StatusChange, 'sessionId'>;

const MAX_ENTRIES = 50_000;

export interface StatusCacheOptions {
  /** How long a status that can still change is answered from the cache (0: no bound); a final one stays. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * Session statuses as the status bus reports them, so polls need no query. Exact because every change is
 * applied from the bus (this process's own at commit, others' by NOTIFY), a change never goes back (seq),
 * and when changes may have been missed the cache is emptied and not filled until the bus is live again.
 */
export class StatusCache {
  private readonly entries = new Map<string, CachedStatus & { at: number }>();
  private generation = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  /**
   * The expiry is a backstop for a change the bus never delivered while it still looked live (issue 26: a
   * silent listener connection left `running` answered for 21 s after the database said `completed`).
   */
  constructor(
    private readonly isLive: () => boolean,
    opts: StatusCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? 0;
    this.now = opts.now ?? Date.now;
  }

  apply(change: StatusChange): void {
    // While the bus is down another process's later change could go unheard: hold nothing until it is back.
    if (!this.isLive()) return;
    const cur = this.entries.get(change.sessionId);
    if (cur && cur.seq >= change.seq) return;
    this.set(change.sessionId, { status: change.status, providerId: change.providerId, partnerId: change.partnerId, seq: change.seq });
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
  }

  get(sessionId: string): CachedStatus | undefined {
    if (!this.isLive()) return undefined;
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (this.ttlMs > 0 && !isTerminal(entry.status) && this.now() - entry.at >= this.ttlMs) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  /** Marks the start of a database read, so a fill from it is dropped if changes were lost meanwhile. */
  mark(): number {
    return this.generation;
  }

  /** Stores what a database read found, unless a change heard meanwhile is newer. */
  fill(sessionId: string, read: CachedStatus, mark: number): void {
    if (mark !== this.generation || !this.isLive()) return;
    const cur = this.entries.get(sessionId);
    if (cur && cur.seq >= read.seq) return;
    this.set(sessionId, read);
  }

  private set(sessionId: string, entry: CachedStatus): void {
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { ...entry, at: this.now() });
    // Map order is insertion order: the first key is the least recently changed or read.
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** Built once at start by server/services.ts, fed by the process's status bus. */
export function createStatusCache(bus: StatusBus, ttlMs = 0): StatusCache {
  const cache = new StatusCache(() => bus.live, { ttlMs });
  bus.subscribe(
    (change) => cache.apply(change),
    () => cache.clear(),
  );
  return cache;
}

export function getStatusCache(app: { services: { statusCache: StatusCache } }): StatusCache {
  return app.services.statusCache;
}

export type { SessionStatus };
