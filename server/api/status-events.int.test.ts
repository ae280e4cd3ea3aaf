import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner } from '../test/partners';
import { until } from '../test/until';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { testApi } from '../test/api-client';
import { createSession as createSessionRoute, endSession, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { streamSessionStatus } from '@/lib/contracts/routes/session-status-events';
import { getMetrics } from '@/lib/contracts/routes/meta';

let server: TestServer;
let provider: Awaited<ReturnType<typeof registerAndLogin>>;
let other: Awaited<ReturnType<typeof registerAndLogin>>;

let partner: TestPartner;

// Small caps, so the cap test needs few streams; the other tests hold at most one stream at a time.
const CAPS = { SSE_STREAMS_PER_PROVIDER: '2', SSE_STREAMS_PER_PARTNER: '3', SSE_STREAMS_MAX: '5' };

beforeAll(async () => {
  server = await startServer({ env: CAPS });
  partner = await createTestPartner(server.baseUrl);
  provider = await registerAndLogin(server.baseUrl, partner);
  other = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 300_000);
afterAll(async () => {
  await server?.stop();
});


async function createSession(): Promise<string> {
  const res = await testApi(server.baseUrl, provider.headers).send(createSessionRoute, { body: {} });
  return ((await res.json()) as { ambient_session_id: string }).ambient_session_id;
}

async function poll(id: string): Promise<string> {
  const res = await testApi(server, provider.headers).send(getSessionStatus, { params: { ambient_session_id: id } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

/** Reads SSE events as they arrive; `onStatus` runs for each before the next is read. */
async function readEvents(res: Response, onStatus: (status: string) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== 'status' || !data) continue;
      const { status } = JSON.parse(data) as { status: string };
      seen.push(status);
      await onStatus(status);
    }
  }
  return seen;
}

describe('GET /api/v1/ambient/session/{id}/status/events', () => {
  it('sends the current status at once, then each change made by the worker, and ends after the terminal one; every poll after an event reads that status', async () => {
    const id = await createSession();
    // The poll fills the status cache with `created`: later polls must not answer it once the status moved on.
    expect(await poll(id)).toBe('created');
    const res = await testApi(server, provider.headers).send(streamSessionStatus, { params: { ambient_session_id: id } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const polledAfter: Array<[string, string]> = [];
    let streamed: Promise<void> | undefined;
    const events = await readEvents(res, async (status) => {
      polledAfter.push([status, await poll(id)]);
      if (status === 'created' && !streamed) {
        streamed = (async () => {
          const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, provider.serviceToken] });
          ws.startTime();
          await ws.sendPcm(synthesizeDialogue([{ role: 'PATIENT', text: 'The patient reports a headache and a cough. Her blood pressure is normal today.' }], 500).pcm);
          ws.eof();
          await ws.closed;
        })();
      }
    });
    await streamed;
    expect(events).toEqual(['created', 'ready', 'running', 'completed']);
    // A poll made after an event never answers an older status (the only later one it may see is newer).
    const order = ['created', 'ready', 'running', 'completed'];
    for (const [event, polled] of polledAfter) expect(order.indexOf(polled)).toBeGreaterThanOrEqual(order.indexOf(event));
    expect(await poll(id)).toBe('completed');
  }, 300_000);

  it('a session already terminal sends its status and ends', async () => {
    const id = await createSession();
    expect((await testApi(server.baseUrl, provider.headers).send(endSession, { params: { ambient_session_id: id } })).status).toBe(200);
    // Ended before any audio: finalisation skips it.
    const res = await testApi(server, provider.headers).send(streamSessionStatus, { params: { ambient_session_id: id } });
    const events = await readEvents(res, async () => {});
    expect(events.at(-1)).toBe('skipped');
    expect(await poll(id)).toBe('skipped');
    const again = await readEvents(await testApi(server, provider.headers).send(streamSessionStatus, { params: { ambient_session_id: id } }), async () => {});
    expect(again).toEqual(['skipped']);
  }, 300_000);

  it("another partner's session is 404 and no token is 401, as for status", async () => {
    const id = await createSession();
    const foreign = await testApi(server, other.headers).send(streamSessionStatus, { params: { ambient_session_id: id } });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as { code: string; message: string }).message).toContain(id);
    const anonymous = await testApi(server).send(streamSessionStatus, { params: { ambient_session_id: id } });
    expect(anonymous.status).toBe(401);
    const bad = await testApi(server.baseUrl, provider.headers).send(streamSessionStatus, { params: { ambient_session_id: 'not-a-uuid' } });
    expect(bad.status).toBe(400);
  }, 120_000);

  it('caps open streams per provider, per partner and per process: 429 {code, message} naming the setting; a closed stream frees its place', async () => {
    const id = await createSession();
    const held: AbortController[] = [];
    // The open streams' responses are kept referenced: undici cancels the body of a response it garbage-collects,
    // which closed a held stream mid-test in a loaded run (a 200 where the process cap's 429 was due).
    const kept: Response[] = [];
    const open = async (who: { headers: Record<string, string> }) => {
      const ctrl = new AbortController();
      const res = await testApi(server, who.headers).send(streamSessionStatus, { params: { ambient_session_id: id }, init: { signal: ctrl.signal } });
      if (res.status === 200) {
        held.push(ctrl);
        kept.push(res);
      }
      return res;
    };
    const refused = async (res: Response) => {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('10');
      const body = (await res.json()) as { code: number; message: string };
      expect(body.code).toBe(429);
      return body.message;
    };
    try {
      expect((await open(provider)).status).toBe(200);
      expect((await open(provider)).status).toBe(200);
      expect(await refused(await open(provider))).toMatch(/this provider already has 2 open status event streams, the limit \(SSE_STREAMS_PER_PROVIDER\)/);

      // Another provider of the same partner: its own place, then the partner's cap.
      const colleague = await registerAndLogin(server.baseUrl, partner);
      const colleagueSession = await testApi(server.baseUrl, colleague.headers).send(createSessionRoute, { body: {} });
      const cid = ((await colleagueSession.json()) as { ambient_session_id: string }).ambient_session_id;
      const openColleague = async () => {
        const ctrl = new AbortController();
        const res = await testApi(server, colleague.headers).send(streamSessionStatus, { params: { ambient_session_id: cid }, init: { signal: ctrl.signal } });
        if (res.status === 200) {
          held.push(ctrl);
          kept.push(res);
        }
        return res;
      };
      expect((await openColleague()).status).toBe(200);
      expect(await refused(await openColleague())).toMatch(/this partner already has 3 open status event streams, the limit \(SSE_STREAMS_PER_PARTNER\)/);

      // Other partners fill the process: 5 streams in all.
      const third = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
      const tid = ((await (await testApi(server.baseUrl, third.headers).send(createSessionRoute, { body: {} })).json()) as { ambient_session_id: string }).ambient_session_id;
      for (let i = 0; i < 2; i++) {
        const ctrl = new AbortController();
        const res = await testApi(server, third.headers).send(streamSessionStatus, { params: { ambient_session_id: tid }, init: { signal: ctrl.signal } });
        expect(res.status).toBe(200);
        held.push(ctrl);
        kept.push(res);
      }
      const fourth = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
      const fid = ((await (await testApi(server.baseUrl, fourth.headers).send(createSessionRoute, { body: {} })).json()) as { ambient_session_id: string }).ambient_session_id;
      const full = await testApi(server, fourth.headers).send(streamSessionStatus, { params: { ambient_session_id: fid } });
      expect(await refused(full)).toMatch(/this server already has 5 open status event streams, the limit \(SSE_STREAMS_MAX\)/);

      const metrics = await (await testApi(server.baseUrl).send(getMetrics)).text();
      expect(metrics).toMatch(/^ambient_sse_streams 5$/m);
      expect(metrics).toMatch(/^ambient_sse_refused_total\{limit="provider"\} 1$/m);
      expect(metrics).toMatch(/^ambient_sse_refused_total\{limit="partner"\} 1$/m);
      expect(metrics).toMatch(/^ambient_sse_refused_total\{limit="process"\} 1$/m);

      // The provider closes one of its streams: once the server has seen it go, a new one is admitted.
      held.shift()!.abort();
      const again = await until('a place freed by the closed stream', async () => {
        const res = await open(provider);
        return res.status === 200 ? res : undefined;
      }, 60_000);
      expect(again.headers.get('content-type')).toMatch(/^text\/event-stream/);
    } finally {
      for (const ctrl of held) ctrl.abort();
    }
    // Every place is given back once the clients are gone.
    await until('all status streams released', async () => {
      const text = await (await testApi(server.baseUrl).send(getMetrics)).text();
      return /^ambient_sse_streams 0$/m.test(text) ? true : undefined;
    }, 60_000);
  }, 180_000);
});
