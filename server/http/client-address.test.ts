import { describe, expect, it } from 'vitest';
import { clientAddressOf, parseTrustedProxies } from './client-address';

describe('clientAddressOf', () => {
  const proxies = parseTrustedProxies('10.0.0.0/8, ::1, 127.0.0.1');

  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('10.0.0.5', '203.0.113.9', [])).toBe('10.0.0.5');
    expect(clientAddressOf('::ffff:127.0.0.2', '203.0.113.9', [])).toBe('127.0.0.2');
  });

  it('is the socket peer when the peer is not a trusted proxy', () => {
    expect(clientAddressOf('192.0.2.7', '203.0.113.9', proxies)).toBe('192.0.2.7');
  });

  it('takes the rightmost hop that is not a trusted proxy, ignoring what the client wrote left of it', () => {
    expect(clientAddressOf('10.0.0.5', '203.0.113.9', proxies)).toBe('203.0.113.9');
    expect(clientAddressOf('::ffff:10.0.0.5', '1.1.1.1, 203.0.113.9, 10.1.2.3', proxies)).toBe('203.0.113.9');
    expect(clientAddressOf('::1', ['1.1.1.1', '198.51.100.4'], proxies)).toBe('198.51.100.4');
    expect(clientAddressOf('10.0.0.5', '[2001:db8::1]:4431', proxies)).toBe('2001:db8::1');
    expect(clientAddressOf('10.0.0.5', '203.0.113.9:5123', proxies)).toBe('203.0.113.9');
  });

  it('stops at the last trusted hop when a hop is not an address, or when every hop is trusted', () => {
    expect(clientAddressOf('10.0.0.5', 'evil, 10.0.0.6', proxies)).toBe('10.0.0.6');
    expect(clientAddressOf('10.0.0.5', '10.0.0.7, 10.0.0.6', proxies)).toBe('10.0.0.7');
    expect(clientAddressOf('10.0.0.5', undefined, proxies)).toBe('10.0.0.5');
  });
});

describe('parseTrustedProxies', () => {
  it('refuses an entry that is not an address or range, naming the variable', () => {
    expect(() => parseTrustedProxies('10.0.0.0/8, proxy.internal')).toThrow(/^TRUSTED_PROXIES: "proxy.internal" is not an IP address or CIDR range/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/TRUSTED_PROXIES/);
    expect(parseTrustedProxies('')).toEqual([]);
    expect(parseTrustedProxies(undefined)).toEqual([]);
  });
});
