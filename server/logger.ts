import pino, { type Logger } from 'pino';
import { currentRequestId } from './observability/request-context';

/**
 * Secrets and PHI never reach the logs: tokens, keys and any free text about a patient are redacted by
 * path, and callers log identifiers and counts, not content.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      // Lines written while serving a request, or running a job a request enqueued, carry its id.
      mixin() {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["sdp_service_token"]',
          'req.headers["sec-websocket-protocol"]',
          '*.partner_token',
          '*.service_token',
          '*.password',
          '*.webhook_secret',
          '*.secret',
          '*.transcript',
          '*.text',
          '*.content',
        ],
        censor: '[redacted]',
      },
    },
    // Synchronous writes: pino's default asynchronous stdout let an exit write its last lines ahead of a
    // chunk still queued behind busy libuv threads (decoders, file appends), so logs came out of order or
    // were lost at shutdown (server/security/shutdown.test.ts). One line per request costs a write(2).
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

export type { Logger };
