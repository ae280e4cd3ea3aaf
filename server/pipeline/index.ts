import { SERVICES } from '../services';
import { closeEngines } from './engines';
import { startFinaliseWorkers, stopFinaliseWorkers } from './finalise-worker';

export { enqueueFinalisation } from './enqueue-finalisation';

// Registered first so it stops last: streams and jobs finish before the engines they use are closed.
SERVICES.push({ name: 'pipeline:engines', start() {}, stop: (ctx) => closeEngines(ctx) });
SERVICES.push({ name: 'worker:pipeline', start: (ctx) => startFinaliseWorkers(ctx), stop: (ctx) => stopFinaliseWorkers(ctx) });
