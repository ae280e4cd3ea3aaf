import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The address half of the outbound policy (DESIGN §12 "Outbound fetches"): which addresses a server-side
 * fetch may contact. Every target is partner- or operator-controlled (webhook URLs, JWKS URIs, OIDC
 * issuers), so without this a partner could make the service reach into its own network: loopback admin
 * ports, cloud metadata at 169.254.169.254, databases on private ranges.
 *
 * Parsing is ipaddr.js's, not ours: IPv6 has many spellings of the same address (`::ffff:0:7f00:1`,
 * `::ffff:127.0.0.1`, `64:ff9b::7f00:1`), and a hand-written parser missed one. An address passes only
 * when both ipaddr.js calls it plain unicast and none of the ranges below holds it; IPv6 forms that carry
 * an IPv4 address are judged by that address.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injectable so tests can play a rebinding DNS server. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

type Range = [cidr: string, label: string];

// Named ranges give operators a readable reason; ipaddr.js's own classification backs them up.
const V4_RANGES: Range[] = [
  ['0.0.0.0/8', 'unspecified ("this network")'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (cloud metadata)'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignment'],
  ['192.0.2.0/24', 'documentation'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  // 240/4 also covers the limited broadcast address 255.255.255.255.
  ['240.0.0.0/4', 'reserved'],
];

const V6_RANGES: Range[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard-only'],
  // Teredo hides the IPv4 endpoint (obfuscated), so it cannot be checked; refuse the prefix.
  ['2001::/32', 'Teredo tunnel'],
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique-local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];

const parseRanges = (ranges: Range[]) => ranges.map(([cidr, label]) => [ipaddr.parseCIDR(cidr), label] as const);
const V4 = parseRanges(V4_RANGES);
const V6 = parseRanges(V6_RANGES);

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  // net.isIP first: ipaddr.js also accepts legacy IPv4 spellings (0x7f.1) that are not literal addresses here.
  const family = net.isIP(bare);
  if (!family) return null;
  // ipaddr.js reads "::a.b.c.d" as "::ffff:a.b.c.d"; spell the dotted tail as hex so it parses as written.
  const text = family === 6 ? bare.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`) : bare;
  try {
    return ipaddr.parse(text);
  } catch {
    return null;
  }
}

function v4(bytes: number[]): string {
  return bytes.join('.');
}

/** The IPv4 address an IPv6 address carries inside it (mapped, translated, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(address: string): { ipv4: string; kind: string } | null {
  const ip = parse(address);
  if (!ip || ip.kind() !== 'ipv6') return null;
  const b = (ip as ipaddr.IPv6).toByteArray();
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const last = v4(b.slice(12, 16));
  switch (ip.range()) {
    case 'ipv4Mapped':
      return { ipv4: last, kind: 'IPv4-mapped' };
    case 'rfc6145':
      // ::ffff:0:a.b.c.d, the SIIT "IPv4-translated" form: the same host as a.b.c.d to a translator.
      return { ipv4: last, kind: 'IPv4-translated' };
    case 'rfc6052':
      // Only the well-known 64:ff9b::/96 has a fixed place for the IPv4 address; the local-use /48 is refused below.
      return b[2] === 0xff && b[3] === 0x9b && zeros(4, 12) ? { ipv4: last, kind: 'NAT64' } : null;
    case '6to4':
      return { ipv4: v4(b.slice(2, 6)), kind: '6to4' };
  }
  // ::a.b.c.d (deprecated "compatible"); :: and ::1 themselves are classified as IPv6.
  if (zeros(0, 12) && !(zeros(12, 15) && b[15]! <= 1)) return { ipv4: last, kind: 'IPv4-compatible' };
  return null;
}

/** Why an address must not be contacted, or null when it is a public unicast address. */
export function classifyAddress(address: string): string | null {
  const ip = parse(address);
  if (!ip) return 'not an IP address';
  if (ip.kind() === 'ipv4') {
    for (const [range, label] of V4) if (ip.match(range)) return label;
    return ip.range() === 'unicast' ? null : `${ip.range()} (non-public)`;
  }
  const inner = embeddedIPv4(address);
  if (inner) {
    const label = classifyAddress(inner.ipv4);
    return label ? `${inner.kind} ${label}` : null;
  }
  for (const [range, label] of V6) if (ip.match(range)) return label;
  const range = ip.range();
  if (range === 'rfc6052') return 'local-use NAT64';
  return range === 'unicast' ? null : `${range} (non-public)`;
}

/** The address check refused the target: never worth retrying until the URL or its DNS changes. */
export class OutboundTargetRefused extends Error {
  readonly retryable = false;
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets and resolvers want it bare. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves the host once and checks every address it has. The caller connects to the returned address
 * (and only it), so a DNS answer that changes between this check and the connection (rebinding) cannot
 * redirect the request.
 */
export async function resolveOutboundTarget(
  url: URL,
  opts: { allowPrivate: boolean; resolver?: Resolver; purpose?: string },
): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const what = opts.purpose ?? 'outbound';
  const literal = net.isIP(host);
  const addresses: ResolvedAddress[] = literal ? [{ address: host, family: literal === 6 ? 6 : 4 }] : await (opts.resolver ?? systemResolver)(host);
  if (addresses.length === 0) throw new Error(`${what} host ${host} has no addresses`);
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const label = classifyAddress(a.address);
      if (label) {
        throw new OutboundTargetRefused(
          `refused: ${what} host ${host} resolves to ${a.address}, a ${label} address; ` +
            'only public addresses are contacted unless WEBHOOK_ALLOW_PRIVATE=true',
        );
      }
    }
  }
  return addresses[0]!;
}

/**
 * Static check of an outbound URL when it is saved. Host names are not resolved here (DNS answers change;
 * the check that matters happens before every request), but literal addresses and localhost names are
 * refused at once so the mistake is seen where it is made. Plain http is accepted (receivers behind a
 * TLS-terminating proxy, local development); https is recommended.
 */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
  if (url.username || url.password) return 'must not contain credentials; requests are authenticated by the X-API-Key signature';
  if (url.hash) return 'must not contain a fragment';
  // `host.` is the same name as `host` to DNS but not to a string comparison: one spelling per host, so no
  // allow/deny list, certificate name or log search is walked around by the other.
  if (url.hostname.endsWith('.')) return `host ${url.hostname} must not end with a dot; write ${url.hostname.replace(/\.+$/, '')}`;
  if (allowPrivate) return null;
  const host = bareHost(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `host ${host} is a loopback name; set WEBHOOK_ALLOW_PRIVATE=true to allow it`;
  if (net.isIP(host)) {
    const label = classifyAddress(host);
    if (label) return `host ${host} is a ${label} address; set WEBHOOK_ALLOW_PRIVATE=true to allow it`;
  }
  return null;
}
