import { describe, expect, it } from 'vitest';
import { safeCallbackUrl, safeRedirect } from './safe-callback-url';

// Each of these, given as ?callbackUrl=, must not send the browser off the site (issue 26 item 3).
const HOSTILE = [
  '/\t/evil.example/x',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\r/evil.example',
  '/\u0000/evil.example',
  '/ /evil.example',
  '/\u00a0/evil.example',
  '/\u2028/evil.example',
  '\t//evil.example',
  '//evil.example',
  '//evil.example/x',
  '///evil.example',
  '/\\evil.example',
  '/\\/evil.example',
  '\\\\evil.example',
  'https://evil.example',
  'http:evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/\t\\evil.example',
  '',
  'admin',
  './/evil.example',
];

describe('safeCallbackUrl', () => {
  it.each(HOSTILE)('falls back for %j', (value) => {
    expect(safeCallbackUrl(value, '/fallback')).toBe('/fallback');
  });

  it('keeps same-site paths with their query and fragment, and encoded characters stay encoded', () => {
    expect(safeCallbackUrl('/admin', '')).toBe('/admin');
    expect(safeCallbackUrl('/admin/partners?tab=keys#top', '')).toBe('/admin/partners?tab=keys#top');
    expect(safeCallbackUrl('/visits/abc', '')).toBe('/visits/abc');
    // Percent-encoded slashes and tabs are part of a path on this site, not a way off it.
    expect(safeCallbackUrl('/%2F%2Fevil.example', '')).toBe('/%2F%2Fevil.example');
    expect(safeCallbackUrl('/%09/evil.example', '')).toBe('/%09/evil.example');
    expect(safeCallbackUrl('/%5Cevil.example', '')).toBe('/%5Cevil.example');
  });

  it('normalises dot segments without leaving the site', () => {
    expect(safeCallbackUrl('/a/../admin', '')).toBe('/admin');
    expect(safeCallbackUrl('/..//evil.example', '/fallback')).toBe('/fallback');
  });

  it('falls back for anything that is not a string', () => {
    expect(safeCallbackUrl(undefined, '/f')).toBe('/f');
    expect(safeCallbackUrl(['/admin'], '/f')).toBe('/f');
  });
});

describe('safeRedirect (next-auth redirect callback)', () => {
  const base = 'https://ambient.example';
  it.each(HOSTILE.filter((v) => v !== '' && v !== 'admin'))('sends %j to the base URL', (value) => {
    expect(safeRedirect(value, base)).toBe(base);
  });

  it('keeps paths and absolute URLs on the same origin', () => {
    expect(safeRedirect('/admin?x=1', base)).toBe(`${base}/admin?x=1`);
    expect(safeRedirect(`${base}/visits`, base)).toBe(`${base}/visits`);
    expect(safeRedirect('https://ambient.example.evil.example/x', base)).toBe(base);
    expect(safeRedirect('https://ambient.example:8443/x', base)).toBe(base);
  });
});
