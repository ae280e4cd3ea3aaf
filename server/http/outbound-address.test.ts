import { describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '@/lib/errors';
import type { AppContext } from '../context';
import { assertWebhookUrlAllowed } from '../webhooks/assert-webhook-url';
import { classifyAddress, embeddedIPv4, resolveOutboundTarget, webhookUrlProblem, OutboundTargetRefused, type Resolver } from './outbound-address';

describe('address classifier', () => {
  const refused: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /link-local/],
    ['169.254.0.1', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.255', /carrier-grade NAT/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['255.255.255.255', /reserved/],
    ['240.0.0.1', /reserved/],
    ['192.0.2.10', /documentation/],
    ['198.18.0.1', /benchmarking/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fc00::1', /unique-local/],
    ['fd12:3456:789a::1', /unique-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['ff02::1', /multicast/],
    ['2001:db8::1', /documentation/],
    ['::ffff:127.0.0.1', /IPv4-mapped loopback/],
    ['::ffff:7f00:1', /IPv4-mapped loopback/],
    ['::ffff:169.254.169.254', /IPv4-mapped link-local/],
    ['::ffff:10.1.2.3', /IPv4-mapped private/],
    ['[::ffff:192.168.0.1]', /IPv4-mapped private/],
    ['::127.0.0.1', /IPv4-compatible loopback/],
    ['64:ff9b::a9fe:a9fe', /NAT64 link-local/],
    ['2002:7f00:1::1', /6to4 loopback/],
    ['2001:0:4136:e378::1', /Teredo/],
    // Issue #12: the SIIT "IPv4-translated" spelling of 127.0.0.1 passed the hand-written parser.
    ['::ffff:0:7f00:1', /IPv4-translated loopback/],
    ['::ffff:0:127.0.0.1', /IPv4-translated loopback/],
    ['::ffff:0:a9fe:a9fe', /IPv4-translated link-local/],
    ['0:0:0:0:0:ffff:7f00:0001', /IPv4-mapped loopback/],
    ['64:ff9b:1::a00:1', /local-use NAT64/],
    ['::7f00:1', /IPv4-compatible loopback/],
  ];
  it.each(refused)('refuses %s', (addr, label) => {
    expect(classifyAddress(addr)).toMatch(label);
  });

  const allowed = ['93.184.216.34', '8.8.8.8', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1', '::ffff:0:808:808', '64:ff9b::808:808'];
  it.each(allowed)('allows public %s', (addr) => {
    expect(classifyAddress(addr)).toBeNull();
  });

  it('treats something that is not an address as not allowed', () => {
    expect(classifyAddress('example.com')).toMatch(/not an IP/);
  });

  it('expands IPv6 forms', () => {
    expect(embeddedIPv4('::ffff:a00:1')).toEqual({ ipv4: '10.0.0.1', kind: 'IPv4-mapped' });
    expect(embeddedIPv4('::ffff:0:7f00:1')).toEqual({ ipv4: '127.0.0.1', kind: 'IPv4-translated' });
    expect(embeddedIPv4('64:ff9b::808:808')).toEqual({ ipv4: '8.8.8.8', kind: 'NAT64' });
    expect(embeddedIPv4('2606:4700::1111')).toBeNull();
  });
});

describe('resolveOutboundTarget', () => {
  const fixed = (...addresses: string[]): Resolver => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('returns the first address of a public host', async () => {
    await expect(resolveOutboundTarget(new URL('https://hooks.example.com/x'), { allowPrivate: false, resolver: fixed('93.184.216.34') })).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('refuses a host with any private address among its answers', async () => {
    const err = await resolveOutboundTarget(new URL('https://mixed.example.com/'), { allowPrivate: false, resolver: fixed('93.184.216.34', '10.0.0.5') }).catch((e) => e);
    expect(err).toBeInstanceOf(OutboundTargetRefused);
    expect(err.message).toMatch(/mixed\.example\.com resolves to 10\.0\.0\.5, a private address/);
    expect(err.message).toMatch(/WEBHOOK_ALLOW_PRIVATE/);
  });

  it('refuses metadata and IPv4-mapped loopback answers, and literal addresses without resolving', async () => {
    let calls = 0;
    const counting: Resolver = async (h) => {
      calls++;
      return fixed('169.254.169.254')(h);
    };
    await expect(resolveOutboundTarget(new URL('http://meta.example/'), { allowPrivate: false, resolver: counting })).rejects.toThrow(/link-local/);
    await expect(resolveOutboundTarget(new URL('http://[::ffff:127.0.0.1]:8080/'), { allowPrivate: false, resolver: counting })).rejects.toThrow(/IPv4-mapped loopback/);
    await expect(resolveOutboundTarget(new URL('http://0x7f.1/'), { allowPrivate: false, resolver: counting })).rejects.toThrow(/127\.0\.0\.1, a loopback/);
    expect(calls).toBe(1);
  });

  it('allows private addresses when configured to', async () => {
    await expect(resolveOutboundTarget(new URL('http://127.0.0.1:9/'), { allowPrivate: true })).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});

describe('webhookUrlProblem (partner create/update)', () => {
  it('accepts public http and https URLs', () => {
    expect(webhookUrlProblem('https://partner.example.com/webhooks/notification', false)).toBeNull();
    expect(webhookUrlProblem('http://partner.example.com:8080/hook?x=1', false)).toBeNull();
  });
  it('refuses other schemes, credentials and fragments', () => {
    expect(webhookUrlProblem('ftp://x.example.com/', false)).toMatch(/http or https/);
    expect(webhookUrlProblem('https://u:p@x.example.com/', false)).toMatch(/credentials/);
    expect(webhookUrlProblem('https://x.example.com/#a', false)).toMatch(/fragment/);
    expect(webhookUrlProblem('not a url', false)).toMatch(/absolute/);
  });
  it('refuses loopback names and private literals unless private addresses are allowed', () => {
    expect(webhookUrlProblem('http://localhost:3000/h', false)).toMatch(/loopback name/);
    expect(webhookUrlProblem('http://api.localhost/h', false)).toMatch(/loopback name/);
    expect(webhookUrlProblem('http://169.254.169.254/latest', false)).toMatch(/link-local/);
    expect(webhookUrlProblem('http://[fd00::1]/h', false)).toMatch(/unique-local/);
    expect(webhookUrlProblem('http://localhost:3000/h', true)).toBeNull();
    expect(webhookUrlProblem('http://10.0.0.1/h', true)).toBeNull();
  });
  it('refuses a host with a trailing dot, which names the same host by another spelling (issue 26 item 10)', () => {
    for (const allowPrivate of [false, true]) {
      expect(webhookUrlProblem('https://partner.example.com./hook', allowPrivate)).toBe('host partner.example.com. must not end with a dot; write partner.example.com');
      expect(webhookUrlProblem('http://localhost.:3000/h', allowPrivate)).toMatch(/must not end with a dot/);
      expect(webhookUrlProblem('https://PARTNER.example.com.:8443/hook', allowPrivate)).toMatch(/^host partner\.example\.com\. must not end with a dot/);
    }
  });
  it('is answered as 400 {code, message} naming webhook_url at save', () => {
    const app = { config: { webhookAllowPrivate: false } } as unknown as AppContext;
    let thrown: unknown;
    try {
      assertWebhookUrlAllowed(app, 'https://partner.example.com./hook');
    } catch (err) {
      thrown = err;
    }
    expect(isApiError(thrown)).toBe(true);
    const err = thrown as ApiError;
    expect(err.status).toBe(400);
    expect(err.toBody()).toEqual({ code: 400, message: 'webhook_url: host partner.example.com. must not end with a dot; write partner.example.com' });
  });
});
