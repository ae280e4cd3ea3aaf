import { SERVICES } from '../services';
import { closeStatusBus, getStatusBus } from './status-bus';
import { getStatusCache } from './status-cache';

// Started first (stopped last): a web process listens before it serves status, and keeps the bus while other services shut down.
SERVICES.unshift({
  name: 'status-bus',
  start: (ctx) => {
    getStatusCache(ctx);
    getStatusBus(ctx);
  },
  stop: (ctx) => closeStatusBus(ctx),
});
