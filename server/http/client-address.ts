import ipaddr from 'ipaddr.js';

/** One entry of TRUSTED_PROXIES: an address range whose X-Forwarded-For is believed. */
export type TrustedRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Parses TRUSTED_PROXIES: a comma-separated list of CIDR ranges or single addresses (`10.0.0.0/8, ::1`).
 * Empty means no proxy is trusted, which is right when clients reach the server directly.
 */
export function parseTrustedProxies(value: string | undefined): TrustedRange[] {
  if (!value?.trim()) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      try {
        if (entry.includes('/')) return ipaddr.parseCIDR(entry);
        const addr = ipaddr.parse(entry);
        return [addr, addr.kind() === 'ipv4' ? 32 : 128] as TrustedRange;
      } catch {
        throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)`);
      }
    });
}

/** An address as ipaddr.js reads it, with IPv4-mapped IPv6 (::ffff:10.0.0.1) as plain IPv4; null if not one. */
function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let s = value.trim();
  // Some proxies write a port: 203.0.113.9:5123 or [2001:db8::1]:5123.
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  if (!ipaddr.isValid(s)) return null;
  return ipaddr.process(s);
}

function isTrusted(addr: ipaddr.IPv4 | ipaddr.IPv6, trusted: TrustedRange[]): boolean {
  return trusted.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));
}

/**
 * The client's address for rate limits and sign-in counters. The socket's peer, unless that peer is a trusted
 * proxy: then X-Forwarded-For is read from the right, each trusted hop's left neighbour believed in turn, and
 * the first hop that is not a trusted proxy is the client. Hops left of it were written by the client and
 * could be anything; a hop that is not an address stops the walk at the last trusted one.
 */
export function clientAddressOf(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedRange[]): string {
  const peer = socketAddress ? parseAddress(socketAddress) : null;
  if (!peer) return socketAddress || 'unknown';
  let client = peer;
  if (trusted.length > 0 && forwardedFor) {
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    for (let i = hops.length - 1; i >= 0 && isTrusted(client, trusted); i--) {
      const hop = parseAddress(hops[i]);
      if (!hop) break;
      client = hop;
    }
  }
  return client.toString();
}
