import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual, loadSecretBox, sha256Hex } from './secret-box';
import { loadServiceKeys } from './service-keys';
import { acquireDirLock, DirLockedError } from '../db/dir-lock';
import { partnerRuleViolation, UpdatePartnerRequest } from '@/lib/contracts/partners';
import { providerIdMatches } from '@/lib/provider-id-pattern';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ambient-unit-'));

describe('secret box', () => {
  it('round-trips, uses a fresh IV each time, and detects tampering', () => {
    const box = loadSecretBox(tmp(), undefined);
    const a = box.seal('whsec_abc');
    expect(a).not.toBe(box.seal('whsec_abc'));
    expect(box.open(a)).toBe('whsec_abc');
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => box.open(parts.join('.'))).toThrow();
  });
  it('keeps the key in the data directory with owner-only permissions', () => {
    const dir = tmp();
    const sealed = loadSecretBox(dir, undefined).seal('x');
    expect(loadSecretBox(dir, undefined).open(sealed)).toBe('x');
    expect(fs.statSync(path.join(dir, 'keys', 'secret.key')).mode & 0o077).toBe(0);
  });
  it('compares in constant time', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(sha256Hex('a')).toHaveLength(64);
  });
});

describe('service keys', () => {
  it('generates a key pair once, signs one-hour tokens and verifies them', async () => {
    const dir = tmp();
    const keys = await loadServiceKeys(dir, '');
    const again = await loadServiceKeys(dir, '');
    expect(again.kid).toBe(keys.kid);
    const token = await keys.sign({ sub: 'p1', pid: 'partner', org: 'o1' }, 3600);
    const claims = await again.verify(token);
    expect(claims).toMatchObject({ sub: 'p1', pid: 'partner', org: 'o1' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(keys.publicJwks.keys[0]).not.toHaveProperty('d');
    const other = await loadServiceKeys(tmp(), '');
    await expect(other.verify(token)).rejects.toThrow();
    const expired = await keys.sign({ sub: 'p1', pid: 'partner', org: 'o1' }, -60);
    await expect(keys.verify(expired)).rejects.toThrow();
  });
});

describe('data directory lock', () => {
  it('admits one holder, reclaims a stale lock and releases', () => {
    const dir = tmp();
    const lock = acquireDirLock(dir, 'pglite');
    fs.writeFileSync(path.join(dir, 'other.lock'), String(process.ppid));
    expect(() => acquireDirLock(dir, 'other')).toThrow(DirLockedError);
    lock.release();
    expect(fs.existsSync(path.join(dir, 'pglite.lock'))).toBe(false);
    fs.writeFileSync(path.join(dir, 'stale.lock'), '999999999');
    acquireDirLock(dir, 'stale').release();
  });
});

describe('partner rules', () => {
  it('enforces one key source, BEARER not READONLY, and patterns for shared-token types', () => {
    expect(partnerRuleViolation({ type: 'STANDARD', jwks_uri: 'https://x' })).toBeNull();
    expect(partnerRuleViolation({ type: 'STANDARD' })?.field).toBe('jwks_uri');
    expect(partnerRuleViolation({ type: 'STANDARD', jwks_uri: 'u', jwks: { keys: [] } })?.field).toBe('jwks_uri');
    expect(partnerRuleViolation({ type: 'BEARER', access_level: 'READONLY', jwks_uri: 'u', provider_id_pattern: '.+' })?.field).toBe('access_level');
    expect(partnerRuleViolation({ type: 'SINGLE_AUTH_TOKEN', jwks_uri: 'u' })?.field).toBe('provider_id_pattern');
  });
  it('matches provider ids against the whole pattern', () => {
    expect(providerIdMatches('[0-9]{4}', '1234')).toBe(true);
    expect(providerIdMatches('[0-9]{4}', 'x1234')).toBe(false);
    expect(providerIdMatches('a|b', 'ab')).toBe(false);
    expect(providerIdMatches('(', 'x')).toBe(false);
  });
  it('refuses provider_id patterns RE2 cannot run, and over-long ones, when saved', () => {
    const pattern = (p: string) => UpdatePartnerRequest.safeParse({ provider_id_pattern: p });
    expect(pattern('[A-Z]{2}-\\d{4}').success).toBe(true);
    const backref = pattern('(a)\\1');
    expect(backref.success).toBe(false);
    expect(backref.error?.issues[0]?.path).toEqual(['provider_id_pattern']);
    expect(backref.error?.issues[0]?.message).toMatch(/RE2 regular expression/);
    expect(pattern('(?=a)a').error?.issues[0]?.message).toMatch(/lookaround/);
    expect(pattern('a'.repeat(257)).error?.issues[0]?.message).toMatch(/at most 256 characters/);
  });
});
