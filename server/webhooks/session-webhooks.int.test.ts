import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { signWebhook } from './sign';
import { startTestReceiver, type ReceivedRequest, type TestReceiver } from './testing/receiver';
import { testApi, unchecked, type CallArgs } from '../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { createSession as createSessionRoute, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { listDeliveries } from '@/lib/contracts/routes/webhooks';

/** Session notifications sent by the real pipeline after real audio streamed over /ws/ambient. */

const TURNS = [
  { role: 'CLINICIAN' as const, text: 'Good morning. What brings you in today?' },
  { role: 'PATIENT' as const, text: 'I have had a cough and a sore throat for three days.' },
  { role: 'CLINICIAN' as const, text: 'No fever? Your lungs sound clear. Rest and drink fluids.' },
];

let server: TestServer;
let receiver: TestReceiver;
let partner: TestPartner;
let dr: TestProvider;
const hook = '/session-hook';

async function api<C extends RouteContract>(contract: C, ...input: CallArgs<C>): Promise<Response> {
  return testApi(server, dr).send(contract, ...input);
}

async function createSession(body: unknown = {}): Promise<{ ambient_session_id: string; encounter_id: string; note_id: string }> {
  const res = await api(createSessionRoute, { body: unchecked(body) });
  expect(res.status).toBe(201);
  return (await res.json()) as { ambient_session_id: string; encounter_id: string; note_id: string };
}

async function waitForStatus(id: string, wanted: string[], limitMs = 240_000): Promise<string> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const s = ((await (await api(getSessionStatus, { params: { ambient_session_id: id } })).json()) as { status: string }).status;
    if (wanted.includes(s)) return s;
    if (Date.now() > deadline) throw new Error(`session ${id} is still ${s}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function notificationFor(sessionId: string, limitMs = 60_000): Promise<ReceivedRequest> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const hit = receiver.to(hook).find((r) => JSON.parse(r.rawBody).session_id === sessionId);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no notification for session ${sessionId}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function stream(id: string, pcm: Buffer): Promise<void> {
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, dr.serviceToken] });
  await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
  ws.startTime();
  await ws.sendPcm(pcm, { binary: true });
  ws.eof();
  await ws.closed;
}

beforeAll(async () => {
  receiver = await startTestReceiver();
  server = await startServer({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
  partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(hook) });
  dr = await registerAndLogin(server.baseUrl, partner);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe('session webhooks from the pipeline', () => {
  it('sends SUCCESS for a completed session, listing the encounter sessions, with working _links', async () => {
    const first = await createSession();
    const second = await createSession({ encounter_id: first.encounter_id });
    await stream(second.ambient_session_id, synthesizeDialogue(TURNS, 600).pcm);
    expect(await waitForStatus(second.ambient_session_id, ['completed', 'failed', 'skipped'])).toBe('completed');

    const req = await notificationFor(second.ambient_session_id);
    expect(req.headers['x-api-key']).toBe(signWebhook(partner.webhookSecret, req.headers['generated-at'] as string, req.rawBody));
    const body = JSON.parse(req.rawBody);
    expect(body).toMatchObject({
      status: 'SUCCESS',
      session_id: second.ambient_session_id,
      encounter_id: first.encounter_id,
      sessions: [first.ambient_session_id, second.ambient_session_id],
      additional_info: { note_id: second.note_id },
    });
    // Every link is a GET on this service that the partner's provider can follow.
    for (const [key, links] of Object.entries(body._links as Record<string, Array<{ method: string; href: string; name: string }>>)) {
      expect(links.length, key).toBeGreaterThan(0);
      for (const l of links) {
        // not a request: the links the payload carries
        expect(l.href.startsWith(`${server.baseUrl}/api/v1/ambient/`)).toBe(true);
        const res = await fetch(l.href, { headers: dr.headers });
        expect(res.status, `${key} ${l.href}`).toBe(200);
      }
    }
    const status = (await (await fetch(body._links.status[0].href, { headers: dr.headers })).json()) as { status: string };
    expect(status.status).toBe('completed');

    const list = await testApi(server.baseUrl, 'admin').send(listDeliveries, { query: { session_id: second.ambient_session_id } });
    const deliveries = ((await list.json()) as { deliveries: Array<{ event_key: string; event_type: string }> }).deliveries;
    expect(deliveries.map((d) => [d.event_type, d.event_key])).toEqual([['session.success', `session:${second.ambient_session_id}:completed`]]);
  }, 300_000);

  it('sends FAILURE with SKIPPED_INSUFFICIENT_AUDIO for a skipped session', async () => {
    const s = await createSession();
    const pcm = Buffer.alloc(16_000 * 2 * 0.4);
    for (let i = 0; i < pcm.length / 2; i++) pcm.writeInt16LE(Math.round(3000 * Math.sin(i / 5)), i * 2);
    await stream(s.ambient_session_id, pcm);
    expect(await waitForStatus(s.ambient_session_id, ['completed', 'failed', 'skipped'])).toBe('skipped');
    const body = JSON.parse((await notificationFor(s.ambient_session_id)).rawBody);
    expect(body).toEqual({
      status: 'FAILURE',
      session_id: s.ambient_session_id,
      encounter_id: s.encounter_id,
      error_code: 'SKIPPED_INSUFFICIENT_AUDIO',
      error_detail: expect.any(String),
    });
    expect(body.error_detail.length).toBeGreaterThan(0);
  }, 120_000);

  it('sends nothing for a session the client aborted', async () => {
    const s = await createSession();
    const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', s.ambient_session_id, dr.serviceToken] });
    await ws.next((f) => f.type === 'STATUS' && f.status === 'ready', 'STATUS ready');
    ws.event('CANCEL');
    await ws.closed;
    expect(await waitForStatus(s.ambient_session_id, ['aborted'])).toBe('aborted');
    const list = await testApi(server.baseUrl, 'admin').send(listDeliveries, { query: { session_id: s.ambient_session_id } });
    expect(((await list.json()) as { deliveries: unknown[] }).deliveries).toEqual([]);
    expect(receiver.to(hook).filter((r) => JSON.parse(r.rawBody).session_id === s.ambient_session_id)).toEqual([]);
  }, 60_000);
});
