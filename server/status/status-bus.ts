import type { Config } from '../config';
import type { Database } from '../db';
import type { Logger } from '../logger';
import type { StatusBus, StatusChange, StatusListener } from './status-types';
import { createPgStatusBus } from './pg-status-bus';
import { StatusFanout } from './fanout';

export { STATUS_CHANNEL } from './fanout';

export type { StatusBus, StatusChange, StatusListener };

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
export function createStatusBus(app: { config: Config; database: Database; log: Logger }): StatusBus {
  return app.database.kind === 'postgres' && app.config.databaseUrl ? createPgStatusBus(app.config.databaseUrl, app.log, app.config.statusBus) : createLocalStatusBus();
}

export function getStatusBus(app: { services: { statusBus: StatusBus } }): StatusBus {
  return app.services.statusBus;
}

export async function closeStatusBus(app: { services: { statusBus: StatusBus } }): Promise<void> {
  const bus = app.services.statusBus;
  // A change written during the rest of shutdown must not open a new listener connection.
  app.services.statusBus = createLocalStatusBus();
  await bus.close();
}
