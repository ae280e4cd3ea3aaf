import dns from 'node:dns';
import net from 'node:net';

/**
 * Outbound-request guard for partner webhook URLs. A webhook URL is partner-controlled, so without this
 * a partner (or whoever edits its record) could make the service POST into its own network: loopback
 * admin ports, cloud metadata at 169.254.169.254, databases on private ranges.
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

type Range = [network: string, prefix: number, label: string];

const V4_RANGES: Range[] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignment'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  // 240/4 also covers the limited broadcast address 255.255.255.255.
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['100::', 64, 'discard-only'],
  // Teredo hides the IPv4 endpoint (obfuscated), so it cannot be checked; refuse the prefix.
  ['2001::', 32, 'Teredo tunnel'],
  ['2001:db8::', 32, 'documentation'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function blockLists(ranges: Range[], type: 'ipv4' | 'ipv6'): Array<[net.BlockList, string]> {
  return ranges.map(([network, prefix, label]) => {
    const list = new net.BlockList();
    list.addSubnet(network, prefix, type);
    return [list, label];
  });
}

const V4 = blockLists(V4_RANGES, 'ipv4');
const V6 = blockLists(V6_RANGES, 'ipv6');

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
export function ipv6Groups(address: string): number[] | null {
  let addr = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (net.isIPv6(addr) === false) return null;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(addr);
  if (dotted) {
    const o = dotted[1]!.split('.').map(Number);
    addr = addr.slice(0, -dotted[1]!.length) + `${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail] = addr.includes('::') ? addr.split('::') : [addr, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill('0');
  const groups = [...h, ...fill, ...t].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function v4FromGroups(hi: number, lo: number): string {
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}

/** The IPv4 address an IPv6 address carries inside it (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(address: string): { ipv4: string; kind: string } | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return { ipv4: v4FromGroups(g[6]!, g[7]!), kind: 'IPv4-mapped' };
  // ::a.b.c.d (deprecated "compatible"); :: and ::1 themselves are classified as IPv6.
  if (zeros(0, 6) && (g[6]! !== 0 || g[7]! > 1)) return { ipv4: v4FromGroups(g[6]!, g[7]!), kind: 'IPv4-compatible' };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { ipv4: v4FromGroups(g[6]!, g[7]!), kind: 'NAT64' };
  if (g[0] === 0x2002) return { ipv4: v4FromGroups(g[1]!, g[2]!), kind: '6to4' };
  return null;
}

/**
 * Why an address must not be contacted, or null when it is a public unicast address.
 * IPv6 forms that carry an IPv4 address are judged by that address.
 */
export function classifyAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').split('%')[0]!;
  if (net.isIPv4(bare)) {
    for (const [list, label] of V4) if (list.check(bare, 'ipv4')) return label;
    return null;
  }
  if (!net.isIPv6(bare)) return 'not an IP address';
  const inner = embeddedIPv4(bare);
  if (inner) {
    const label = classifyAddress(inner.ipv4);
    return label ? `${inner.kind} ${label}` : null;
  }
  for (const [list, label] of V6) if (list.check(bare, 'ipv6')) return label;
  return null;
}

export class WebhookTargetRefused extends Error {
  readonly retryable = false;
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets and resolvers want it bare. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Resolves the webhook host once and checks every address it has. The caller connects to the returned
 * address (and only it), so a DNS answer that changes between this check and the connection (rebinding)
 * cannot redirect the request.
 */
export async function resolveWebhookTarget(url: URL, opts: { allowPrivate: boolean; resolver?: Resolver }): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const literal = net.isIP(host);
  const addresses: ResolvedAddress[] = literal ? [{ address: host, family: literal === 6 ? 6 : 4 }] : await (opts.resolver ?? systemResolver)(host);
  if (addresses.length === 0) throw new Error(`webhook host ${host} has no addresses`);
  if (!opts.allowPrivate) {
    for (const a of addresses) {
      const label = classifyAddress(a.address);
      if (label) {
        throw new WebhookTargetRefused(
          `refused: webhook host ${host} resolves to ${a.address}, a ${label} address; ` +
            'only public addresses are contacted unless WEBHOOK_ALLOW_PRIVATE=true',
        );
      }
    }
  }
  return addresses[0]!;
}

/**
 * Static check of a webhook URL when a partner is created or updated. Host names are not resolved
 * here (DNS answers change; the check that matters happens before every delivery), but literal
 * addresses and localhost names are refused at once so the mistake is seen where it is made.
 * Plain http is accepted (receivers behind a TLS-terminating proxy, local development); https is
 * recommended because the body carries identifiers and the signature does not hide it.
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
  if (allowPrivate) return null;
  const host = bareHost(url).toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `host ${host} is a loopback name; set WEBHOOK_ALLOW_PRIVATE=true to allow it`;
  if (net.isIP(host)) {
    const label = classifyAddress(host);
    if (label) return `host ${host} is a ${label} address; set WEBHOOK_ALLOW_PRIVATE=true to allow it`;
  }
  return null;
}
