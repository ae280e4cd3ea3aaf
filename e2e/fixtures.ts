import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';
import { importJWK, SignJWT, type JWK } from 'jose';

export const E2E_DIR = path.resolve(import.meta.dirname, '..', 'tmp', 'e2e');
export const FAKE_AUDIO_WAV = path.join(E2E_DIR, 'fake-audio.wav');
/**
 * How long a recorded visit may take from End to "Note ready": a bound for a wedged pipeline, not a speed
 * check. On two cores beside other suites (load ~30) one visit took almost 600 s, and 240 s failed a run.
 */
export const NOTE_READY_BOUND_MS = 900_000;

export interface E2EUser {
  email: string;
  password: string;
  role: 'service_admin' | 'partner_admin' | 'clinician';
  partner_id?: string;
  provider_email?: string;
}

/** What global-setup prepared: the running server, its users and a partner whose signing key the suite holds. */
export interface E2EState {
  baseUrl: string;
  adminKey: string;
  dataDir: string;
  fakeAudioWav: string;
  users: { serviceAdmin: E2EUser; partnerAdmin: E2EUser; clinician: E2EUser };
  partner: { partnerId: string; issuer: string; kid: string; privateJwk: JWK };
}

export function readE2EState(): E2EState {
  return JSON.parse(fs.readFileSync(path.join(E2E_DIR, 'state.json'), 'utf8')) as E2EState;
}

/** Admin API call with the bootstrap admin key; throws with the error body on a non-2xx answer. */
export async function adminApi<T = any>(p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const s = readE2EState();
  const res = await fetch(`${s.baseUrl}${p}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: { authorization: `Bearer ${s.adminKey}`, 'content-type': 'application/json' },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p} → ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A partner_token for the suite's partner (e2e-clinic), signed with the key its JWKS trusts. */
export async function partnerToken(claims: Record<string, unknown> = {}): Promise<string> {
  const s = readE2EState();
  const key = await importJWK(s.partner.privateJwk, 'RS256');
  return new SignJWT({ email: `dr.${crypto.randomUUID().slice(0, 8)}@clinic.e2e.test`, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: s.partner.kid })
    .setIssuer(s.partner.issuer)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}

/** Signs in through the real login form. */
export async function loginAs(page: Page, user: E2EUser, callbackUrl?: string): Promise<void> {
  await page.goto(callbackUrl ? `/login?callbackUrl=${encodeURIComponent(callbackUrl)}` : '/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Runs axe (WCAG 2.1 A/AA rules) on the current page and fails with the violations listed. */
export async function expectAccessible(page: Page, label = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

export const test = base.extend<{ state: E2EState; cspViolations: string[] }>({
  state: async ({}, use) => {
    await use(readE2EState());
  },
  // Every page runs under a nonce-based Content-Security-Policy (proxy.ts): a violation Chromium reports is
  // something the policy broke, and fails the test. A test that provokes one on purpose empties the list.
  cspViolations: [
    async ({ page }, use) => {
      const seen: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
      });
      await use(seen);
      expect(seen, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The recorder's figures, which it keeps on the document for the tests (components/clinician/Recorder.tsx). */
export const recorderFigure = (page: Page, name: 'recordedMs' | 'unackedMs' | 'ackedMs'): Promise<number> =>
  page.evaluate((n) => Number(document.documentElement.dataset[n] ?? 0), name);

/** Calls the v1 API from the page with the clinician's minted token, as the app does. */
export async function apiFromPage<T>(page: Page, p: string): Promise<T> {
  return page.evaluate(async (url) => {
    const t = await (await fetch('/api/app/token')).json();
    const res = await fetch(url, { headers: { sdp_service_token: t.service_token } });
    return res.json();
  }, p) as Promise<T>;
}
