import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { TestSocket } from '../server/test/ws-client';
import { synthesize } from '../server/engines/speech/synth';
import { adminApi, expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, test } from './fixtures';

/** A partner's webhook receiver on this machine: records every notification and answers 200. */
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let receiver: http.Server;
let receiverUrl = '';

// State carried through the serial flow: the partner onboarded in the UI, its key, its provider and session.
const partnerId = `acme-${crypto.randomUUID().slice(0, 6)}`;
const issuer = `https://idp.acme.e2e.test/${partnerId}`;
const kid = 'acme-key-1';
let signingKey: CryptoKey;
let publicJwk: Record<string, unknown>;
const providerEmail = `dr.${crypto.randomUUID().slice(0, 6)}@acme.e2e.test`;
let sessionId = '';
let deliveryPath = '';

function token(claims: Record<string, unknown>, exp: string | number = '10m') {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).setIssuer(issuer).setIssuedAt().setExpirationTime(exp).sign(signingKey);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' };
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"ok"}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/notification`;
});

test.afterAll(async () => {
  await new Promise((r) => receiver.close(r));
});

test('a service admin onboards a partner through the console and tests its trust', async ({ page, state }) => {
  await loginAs(page, state.users.serviceAdmin);
  await expect(page).toHaveURL(/\/admin\/partners$/);
  await expect(page.getByRole('heading', { name: 'Partners', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'E2E Clinic', exact: true })).toBeVisible();
  await expectAccessible(page, 'partners list');

  await page.getByRole('link', { name: 'New partner' }).click();
  await expect(page.getByRole('heading', { name: 'New partner' })).toBeVisible();
  await expectAccessible(page, 'new partner form');
  // BEARER partners cannot be READONLY: the form does not offer it.
  await page.getByLabel('Type').selectOption('BEARER');
  await expect(page.getByLabel('Access level').locator('option[value="READONLY"]')).toBeDisabled();
  await page.getByLabel('Type').selectOption('STANDARD');
  await expect(page.getByLabel('Access level').locator('option[value="READONLY"]')).toBeEnabled();

  await page.getByLabel('Partner ID').fill(partnerId);
  await page.getByLabel('Name', { exact: true }).fill('Acme Health');
  await page.getByLabel('Issuer (iss)').fill(issuer);
  await page.getByLabel('Inline JWKS', { exact: true }).check();
  // Submitting without keys is refused by the shared contract, next to the field.
  await page.getByRole('button', { name: 'Create partner' }).click();
  await expect(page.getByText('exactly one of jwks_uri and jwks is required')).toBeVisible();
  await page.getByLabel('Inline JWKS (JSON)').fill(JSON.stringify({ keys: [publicJwk] }));
  await page.getByLabel('Webhook URL').fill(receiverUrl);
  await page.getByRole('button', { name: 'Create partner' }).click();

  const secret = page.getByTestId('one-time-secret');
  await expect(secret).toHaveText(/^whsec_/);
  await page.getByRole('link', { name: `Open partner ${partnerId}` }).click();
  await expect(page.getByRole('heading', { name: 'Acme Health', level: 1 })).toBeVisible();
  await expectAccessible(page, 'partner detail');

  await page.getByLabel('partner_token').fill(await token({ email: providerEmail }));
  await page.getByRole('button', { name: 'Test token' }).click();
  await expect(page.getByTestId('trust-result')).toContainText(`Valid. The token identifies ${providerEmail}`);
  await page.getByLabel('partner_token').fill(await token({ email: providerEmail }, Math.floor(Date.now() / 1000) - 3600));
  await page.getByRole('button', { name: 'Test token' }).click();
  await expect(page.getByTestId('trust-result')).toContainText('Not valid: partner_token has expired');

  // Edit through the same form; BEARER without a provider_id pattern is refused by the shared rules.
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Type').selectOption('BEARER');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('is required for BEARER partners')).toBeVisible();
  await page.getByLabel('Type').selectOption('STANDARD');
  await page.getByLabel('Name', { exact: true }).fill('Acme Health Inc');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Health Inc', level: 1 })).toBeVisible();
  const updates = await adminApi<{ entries: Array<{ before: { name: string }; after: { name: string } }> }>(
    `/api/admin/v1/audit?action=partner.update&partner_id=${partnerId}`,
  );
  expect(updates.entries[0]).toMatchObject({ before: { name: 'Acme Health' }, after: { name: 'Acme Health Inc' } });

  await page.getByRole('button', { name: 'Send test webhook' }).click();
  await expect(page.getByTestId('test-webhook-result')).toContainText('Delivered — receiver answered 200');
  expect(received.some((r) => JSON.parse(r.body).additional_info?.test === true)).toBe(true);

  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the webhook secret?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'rotate secret dialog');
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(page.getByTestId('one-time-secret')).toHaveText(/^whsec_/);
});

test("the partner's trust registers and logs in a provider through the API, and the provider appears", async ({ page, state }) => {
  const t = await token({ email: providerEmail });
  const reg = await fetch(`${state.baseUrl}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partner_id: partnerId, partner_token: t, provider_name: 'Dr Acme', provider_org_id: 'acme-north', provider_specialty: 'CARDIOLOGY' }),
  });
  expect(reg.status).toBe(201);
  const login = await fetch(`${state.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partner_id: partnerId, partner_token: t }),
  });
  expect(login.status).toBe(200);

  await loginAs(page, state.users.serviceAdmin, `/admin/partners/${partnerId}/providers`);
  const row = page.getByRole('row', { name: /Dr Acme/ });
  await expect(row).toContainText(providerEmail);
  await expect(row).toContainText('acme-north');
  await expect(row).toContainText('CARDIOLOGY');
  await expect(row).toContainText('linked');
  await expectAccessible(page, 'providers');

  await page.getByLabel('Search providers').fill('nobody-matches-this');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No provider matches the search.')).toBeVisible();
  await page.getByLabel('Search providers').fill('acme-north');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('row', { name: /Dr Acme/ })).toBeVisible();

  // Disable and enable through the UI; login follows.
  await page.getByRole('button', { name: 'Disable Dr Acme' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('row', { name: /Dr Acme/ })).toContainText('disabled');
  const refused = await fetch(`${state.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partner_id: partnerId, partner_token: t }),
  });
  expect(refused.status).toBe(403);
  await page.getByRole('button', { name: 'Enable Dr Acme' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByRole('row', { name: /Dr Acme/ })).not.toContainText('disabled');
});

test('a streamed session, its status history and its webhook delivery appear; the delivery is re-delivered', async ({ page, state }) => {
  test.setTimeout(NOTE_READY_BOUND_MS + 360_000);
  const t = await token({ email: providerEmail });
  const login = await fetch(`${state.baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ partner_id: partnerId, partner_token: t }),
  });
  const { service_token } = (await login.json()) as { service_token: string };
  const headers = { sdp_service_token: service_token, 'content-type': 'application/json' };
  const created = await fetch(`${state.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers, body: '{}' });
  expect(created.status).toBe(201);
  sessionId = ((await created.json()) as { ambient_session_id: string }).ambient_session_id;

  const pcm = synthesize('I have had a cough and a fever for three days. Take amoxicillin five hundred milligrams three times a day for seven days.');
  const ws = await TestSocket.open(`${state.baseUrl.replace(/^http/, 'ws')}/ws/ambient`, { protocols: ['AmbientAuth', sessionId, service_token] });
  await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
  ws.startTime();
  await ws.sendPcm(pcm);
  ws.eof();
  await ws.next((f) => f.type === 'STATUS' && f.status === 'running', 'STATUS running');
  await ws.closed;

  await expect
    .poll(async () => ((await (await fetch(`${state.baseUrl}/api/v1/ambient/session/${sessionId}/status`, { headers })).json()) as { status: string }).status, {
      timeout: NOTE_READY_BOUND_MS,
      intervals: [1000],
    })
    .toBe('completed');
  await expect.poll(() => received.filter((r) => r.body.includes(sessionId)).length, { timeout: 60_000 }).toBe(1);
  const first = received.find((r) => r.body.includes(sessionId))!;
  expect(JSON.parse(first.body)).toMatchObject({ status: 'SUCCESS', session_id: sessionId });

  await loginAs(page, state.users.serviceAdmin, `/admin/sessions?partner_id=${partnerId}`);
  await expect(page.getByLabel('Partner')).toHaveValue(partnerId);
  await expectAccessible(page, 'sessions list');
  const row = page.getByRole('row', { name: new RegExp(sessionId) });
  await expect(row).toContainText('completed');
  await expect(row).toContainText('Dr Acme');
  await row.getByRole('link', { name: sessionId }).click();

  await expect(page.getByRole('heading', { name: 'Session', level: 1 })).toBeVisible();
  const history = page.getByRole('list', { name: 'Status transitions' });
  for (const s of ['created', 'ready', 'running', 'completed']) await expect(history).toContainText(s);
  // The console shows the transcript the API serves (recognition quality is the speech engine's own suite).
  const transcript = (await (await fetch(`${state.baseUrl}/api/v1/ambient/session/${sessionId}/transcript`, { headers })).json()) as {
    final_transcript: Array<{ transcript: string }>;
  };
  expect(transcript.final_transcript.length).toBeGreaterThan(0);
  for (const e of transcript.final_transcript) await expect(page.getByRole('list', { name: 'Transcript entries' })).toContainText(e.transcript);
  await expect(page.getByLabel('Recording 1 audio')).toHaveAttribute('src', /\/api\/v1\/recordings\/.+\/audio\?expires=/);
  const audioSrc = await page.getByLabel('Recording 1 audio').getAttribute('src');
  const audio = await page.request.get(audioSrc!);
  expect(audio.headers()['content-type']).toBe('audio/wav');
  await expect(page.getByRole('region', { name: 'Structured data' })).toBeVisible();
  // The session's FHIR document as partners get it, shown and downloadable.
  await expect(page.getByLabel('FHIR bundle JSON')).toContainText('"resourceType": "Bundle"');
  const [fhirFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download FHIR bundle' }).click()]);
  const fhir = JSON.parse(fs.readFileSync((await fhirFile.path())!, 'utf8')) as { entry: Array<{ resource: { resourceType: string } }> };
  expect(fhir.entry[0]!.resource.resourceType).toBe('Composition');
  await expectAccessible(page, 'session detail');

  const deliveries = page.getByRole('table', { name: 'Webhook deliveries for this session' });
  await expect(deliveries).toContainText('delivered');
  await deliveries.getByRole('link').first().click();
  await expect(page.getByRole('heading', { name: 'Webhook delivery', level: 1 })).toBeVisible();
  deliveryPath = new URL(page.url()).pathname;
  await expect(page.getByLabel('Exact request body')).toContainText(sessionId);
  // The headers shown are the ones the receiver got, signature included.
  await expect(page.getByLabel('Request headers of attempt 1')).toContainText(String(first.headers['x-api-key']));
  await expect(page.getByLabel('Request headers of attempt 1')).toContainText(String(first.headers['webhook-id']));
  await expectAccessible(page, 'delivery detail');

  await page.getByRole('button', { name: 'Re-deliver' }).click();
  await expect.poll(() => received.filter((r) => r.body.includes(sessionId)).length, { timeout: 60_000 }).toBe(2);
  const [a, b] = received.filter((r) => r.body.includes(sessionId));
  expect(b!.headers['webhook-id']).toBe(a!.headers['webhook-id']);
  expect(b!.body).toBe(a!.body);
  await expect(page.getByText('Attempt 2')).toBeVisible();

  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook deliveries', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(sessionId.slice(0, 8)) }).first()).toBeVisible();
  await expectAccessible(page, 'deliveries list');
});

test('API keys: create shown once, listed, revoked (then refused); audit log shows the changes', async ({ page, state }) => {
  await loginAs(page, state.users.serviceAdmin, '/admin/api-keys');
  await expectAccessible(page, 'api keys');
  await page.getByLabel('Name', { exact: true }).fill('e2e automation');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('one-time-secret').textContent())!;
  expect(key).toMatch(/^amb_/);
  expect((await fetch(`${state.baseUrl}/api/admin/v1/partners`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  await page.getByRole('button', { name: 'Revoke e2e automation' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('row', { name: /e2e automation/ })).toContainText('revoked');
  expect((await fetch(`${state.baseUrl}/api/admin/v1/partners`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await page.getByLabel('Action').fill('api_key.revoke');
  await page.getByRole('button', { name: 'Filter' }).click();
  const row = page.getByRole('row', { name: /api_key.revoke/ }).first();
  await expect(row).toContainText(`user:${state.users.serviceAdmin.email}`);
  await row.getByText('Show change').click();
  await expect(row).toContainText('revoked_at');
  await expectAccessible(page, 'audit log');

  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('row', { name: new RegExp(state.users.clinician.email) })).toContainText('clinician');
  await expectAccessible(page, 'users');
});

test("a partner admin sees only its own partner's data", async ({ page, state }) => {
  await loginAs(page, state.users.partnerAdmin);
  await expect(page).toHaveURL(/\/admin\/partners$/);
  await expect(page.getByRole('link', { name: 'E2E Clinic', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Acme Health Inc', exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New partner' })).toHaveCount(0);

  await page.goto(`/admin/partners/${partnerId}`);
  await expect(page.getByRole('alert').filter({ hasText: `partner ${partnerId} not found` })).toBeVisible();
  await page.goto(`/admin/partners/${partnerId}/providers`);
  await expect(page.getByRole('alert').filter({ hasText: 'not found' })).toBeVisible();
  await page.goto(`/admin/sessions/${sessionId}`);
  await expect(page.getByRole('alert').filter({ hasText: `session ${sessionId} not found` })).toBeVisible();
  await page.goto('/admin/sessions');
  await expect(page.getByText('No sessions match.')).toBeVisible();
  await page.goto('/admin/webhooks');
  await expect(page.getByText('No deliveries match.')).toBeVisible();
  await page.goto('/admin/partners/new');
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
  // The API says the same to the signed-in partner admin.
  const res = await page.request.get(`/api/admin/v1/sessions/${sessionId}`);
  expect(res.status()).toBe(404);
});

test('a clinician gets the 403 page in the admin console; signed-out visitors are sent to sign in', async ({ page, state }) => {
  await page.goto('/admin/sessions');
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fadmin/);
  await expectAccessible(page, 'login');
  await page.getByLabel('Email').fill(state.users.clinician.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is not correct.' })).toBeVisible();

  await loginAs(page, state.users.clinician);
  await page.goto('/admin/partners');
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
  expect((await page.request.get('/api/admin/v1/partners')).status()).toBe(401);
});

// Tablet and phone widths: what overflows there depends on the fonts, so every scroller is focusable anyway.
for (const width of [768, 375]) test(`every admin page passes axe at ${width} px`, async ({ page, state }) => {
  await page.setViewportSize({ width, height: 1024 });
  await loginAs(page, state.users.serviceAdmin);
  for (const path of [
    '/admin/partners',
    '/admin/partners/new',
    `/admin/partners/${partnerId}`,
    `/admin/partners/${partnerId}/providers`,
    '/admin/sessions',
    `/admin/sessions/${sessionId}`,
    '/admin/webhooks',
    deliveryPath,
    '/admin/api-keys',
    '/admin/users',
    '/admin/audit',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page, `${path} at ${width}px`);
  }
});
