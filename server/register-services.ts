/**
 * Importing a layer registers its services and WebSocket routes. main.ts and worker.ts import this file,
 * so a process runs exactly the layers listed here.
 */
import './auth/console-resolver';
import './webhooks/worker';
import './domain/ckg/ckg-worker';
import './codesets/service';
import './pipeline/index';
import './realtime/index';
import './status/index';
export {};
