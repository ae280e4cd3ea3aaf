import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { constantTimeEqual } from '../auth/secret-box';

/**
 * Who may read /metrics (route names and volumes, which some deployments keep private). With
 * METRICS_TOKEN set, callers must send it as a bearer token. Without one, metrics are served only while
 * the server listens on a loopback HOST (so only the machine itself can ask); on any other HOST they are
 * refused until a token is configured, rather than published to the network by default (issue #12).
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (!net.isIP(bare)) return false;
  const ip = ipaddr.process(bare);
  return ip.range() === 'loopback';
}

export interface MetricsAccess {
  token?: string;
  host: string;
}

/** The refusal for this request, or null when it may read the metrics. */
export function metricsRefusal(req: { headers: { authorization?: string } }, access: MetricsAccess): { status: 401 | 403; message: string } | null {
  if (access.token) {
    return constantTimeEqual(req.headers.authorization ?? '', `Bearer ${access.token}`)
      ? null
      : { status: 401, message: 'metrics require Authorization: Bearer <METRICS_TOKEN>' };
  }
  if (isLoopbackHost(access.host)) return null;
  return { status: 403, message: `metrics are not served on HOST ${access.host} without METRICS_TOKEN; set METRICS_TOKEN to enable them` };
}
