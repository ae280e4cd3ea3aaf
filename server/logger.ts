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
    // were lost at shutdown (server/test/security/shutdown.test.ts). One line per request costs a write(2).
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

export type { Logger };

/**
 * The one line per HTTP request. Its fields are fixed (request id, method, path without the query, status,
 * time) and hold no secret or PHI, so it skips the redaction: its seven wildcard paths cost ~14 µs a line
 * here, more than the rest of a status poll's own work. It writes to the same destination as `log`, so
 * the lines keep their order.
 */
export function createRequestLogger(log: Logger): Logger {
  const destination = (log as unknown as Record<symbol, pino.DestinationStream>)[pino.symbols.streamSym]!;
  return pino({ level: log.level, base: undefined }, destination);
}
