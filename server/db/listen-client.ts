import pg from 'pg';

/** A dedicated PostgreSQL connection for LISTEN/NOTIFY: the pool's connections cannot hold a LISTEN. */
export type ListenClient = pg.Client;

export interface ListenClientOptions {
  databaseUrl: string;
  /** How the connection names itself in pg_stat_activity. */
  applicationName: string;
  /** TCP keepalive starts after this much quiet. */
  keepAliveMs: number;
  connectTimeoutMs: number;
}

export function newListenClient(o: ListenClientOptions): ListenClient {
  return new pg.Client({
    connectionString: o.databaseUrl,
    keepAlive: true,
    keepAliveInitialDelayMillis: o.keepAliveMs,
    application_name: o.applicationName,
    connectionTimeoutMillis: o.connectTimeoutMs,
  });
}

/** Drops the socket itself: a silent peer never answers end(). */
export function destroyListenSocket(c: ListenClient): void {
  (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
