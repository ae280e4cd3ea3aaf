import type { ServerOptions } from 'node:http';
import type { Config } from '../config';

/**
 * Limits on the Node HTTP server, so a client that connects and goes silent cannot hold a socket for ever
 * (2,000 silent connections stayed open for over 330 s, issue #12):
 * - headersTimeout: a request's headers must arrive within this, counted from the connection's start for
 *   the first request (a silent connection is closed once it passes);
 * - requestTimeout: the whole request, body included;
 * - keepAliveTimeout: an idle kept-alive connection between requests.
 * Expiry is checked every connectionsCheckingInterval, so a connection lives at most a timeout plus one
 * interval. Expired connections get a 408 and are closed by the clientError handler in server/main.ts.
 */
export function httpServerOptions(config: Pick<Config, 'http'>): ServerOptions {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  return {
    headersTimeout: headersTimeoutMs,
    // Node requires requestTimeout >= headersTimeout (0 would disable it).
    requestTimeout: Math.max(requestTimeoutMs, headersTimeoutMs),
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(headersTimeoutMs / 2))),
  };
}
