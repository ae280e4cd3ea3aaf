import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { startTestReceiver, type TestReceiver } from '../webhooks/testing/receiver';
import { until } from '../test/until';
import { infoRoute, testApi } from '../test/api-client';
import { getMetrics } from '@/lib/contracts/routes/meta';
import { getSessionStatus } from '@/lib/contracts/routes/sessions';
import { ingestCkgBundle } from '@/lib/contracts/routes/ckg';

let server: TestServer;
let receiver: TestReceiver;
let dr: TestProvider;

beforeAll(async () => {
  receiver = await startTestReceiver();
  server = await startServer({ env: { METRICS_TOKEN: 'scrape-secret' } });
  const partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/hook') });
  dr = await registerAndLogin(server.baseUrl, partner);
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

async function scrape(): Promise<string> {
  const res = await testApi(server.baseUrl, { authorization: 'Bearer scrape-secret' }).send(getMetrics);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return res.text();
}

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    if (Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('Prometheus metrics at /metrics', () => {
  it('requires the METRICS_TOKEN when one is configured', async () => {
    const res = await testApi(server.baseUrl).send(getMetrics);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, message: expect.stringContaining('METRICS_TOKEN') });
  });

  it('counts requests by route template (not by raw path), method and status, with a latency histogram', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    for (const id of ids) await testApi(server.baseUrl, dr.headers).send(getSessionStatus, { params: { ambient_session_id: id } });
    await testApi(server.baseUrl, dr.headers).send(infoRoute('loincs'));
    const text = await scrape();
    const route = '/api/v1/ambient/session/{ambient_session_id}/status';
    expect(sample(text, 'http_requests_total', { route, method: 'GET', status: '404' })).toBeGreaterThanOrEqual(2);
    // not a request: the route label of a metric
    expect(sample(text, 'http_requests_total', { route: '/api/v1/info/loincs', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route, method: 'GET' })).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(text).not.toContain(id);
    expect(text).toMatch(/^ambient_active_streams \d+$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('counts jobs by queue and outcome and webhook attempts, and carries the request id into the job logs', async () => {
    const requestId = `trace-${crypto.randomUUID()}`;
    const ingest = await testApi(server.baseUrl, { ...dr.headers, 'x-request-id': requestId }).send(ingestCkgBundle, { body: { emr_patient_id: 'MRN-metrics', bundle: { resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'Patient', id: 'p1' } }] } } });
    expect(ingest.status).toBe(202);
    expect(ingest.headers.get('x-request-id')).toBe(requestId);

    const text = await until('the CKG job and its webhook', async () => {
      const t = await scrape();
      return (sample(t, 'jobs_total', { queue: 'ckg-process', outcome: 'completed' }) ?? 0) >= 1 && (sample(t, 'webhook_attempts_total', { event_type: 'ckg', outcome: 'delivered' }) ?? 0) >= 1 ? t : undefined;
    }, 30_000);
    expect(sample(text, 'jobs_total', { queue: 'webhook-deliver', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'job_duration_seconds_count', { queue: 'ckg-process' })).toBeGreaterThanOrEqual(1);

    // Lines written by the CKG worker and then by the webhook worker both name the request that started it.
    const lines = server
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; requestId?: string });
    const traced = lines.filter((l) => l.requestId === requestId).map((l) => l.msg);
    expect(traced).toContain('request');
    expect(traced).toContain('webhook enqueued');
    expect(traced).toContain('webhook attempt');
    expect(receiver.to('/hook').length).toBeGreaterThanOrEqual(1);
  });
});
