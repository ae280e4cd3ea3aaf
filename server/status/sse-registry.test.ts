import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { isApiError } from '@/lib/errors';
import { registerSseMetrics, SseRegistry, type SseEndReason } from './sse-registry';

const limits = { perProvider: 2, perPartner: 3, perProcess: 4, maxLifetimeMs: 0 };
const a1 = { providerId: 'a', partnerId: 'p1' };
const b1 = { providerId: 'b', partnerId: 'p1' };
const c2 = { providerId: 'c', partnerId: 'p2' };

function refusal(fn: () => unknown): { status: number; message: string; headers?: Record<string, string> } {
  try {
    fn();
  } catch (err) {
    if (isApiError(err)) return { status: err.status, message: err.message, headers: err.headers };
    throw err;
  }
  throw new Error('not refused');
}

describe('SseRegistry', () => {
  it('refuses over each cap with 429 naming its setting, and a release (even twice) frees exactly one place', () => {
    const sse = new SseRegistry(limits);
    const releaseA = sse.admit(a1, () => {});
    sse.admit(a1, () => {});
    expect(refusal(() => sse.admit(a1, () => {}))).toEqual({
      status: 429,
      message: 'this provider already has 2 open status event streams, the limit (SSE_STREAMS_PER_PROVIDER); close one, or poll the status instead',
      headers: { 'retry-after': '10' },
    });
    sse.admit(b1, () => {});
    expect(refusal(() => sse.admit(b1, () => {})).message).toMatch(/^this partner already has 3 .*SSE_STREAMS_PER_PARTNER/);
    sse.admit(c2, () => {});
    expect(refusal(() => sse.admit(c2, () => {})).message).toMatch(/^this server already has 4 .*SSE_STREAMS_MAX/);
    expect(sse.refused).toEqual({ provider: 1, partner: 1, process: 1 });

    releaseA();
    releaseA();
    expect(sse.size).toBe(3);
    sse.admit({ providerId: 'd', partnerId: 'p3' }, () => {});
    expect(refusal(() => sse.admit({ providerId: 'e', partnerId: 'p4' }, () => {})).message).toMatch(/SSE_STREAMS_MAX/);
  });

  it('0 lifts a cap', () => {
    const sse = new SseRegistry({ perProvider: 0, perPartner: 0, perProcess: 0, maxLifetimeMs: 0 });
    for (let i = 0; i < 50; i++) sse.admit(a1, () => {});
    expect(sse.size).toBe(50);
  });

  it('ends the streams that match, names their holders, and refuses with 503 once stopping', () => {
    const sse = new SseRegistry(limits);
    const ended: Array<[string, SseEndReason]> = [];
    sse.admit(a1, (r) => ended.push(['a', r]));
    sse.admit(b1, (r) => ended.push(['b', r]));
    sse.admit(c2, (r) => ended.push(['c', r]));
    expect(sse.holders()).toEqual([a1, b1, c2]);
    expect(sse.endWhere((h) => h.partnerId === 'p1', 'disabled')).toBe(2);
    expect(ended).toEqual([
      ['a', 'disabled'],
      ['b', 'disabled'],
    ]);
    sse.stopping = true;
    expect(refusal(() => sse.admit(c2, () => {})).status).toBe(503);
  });

  it('is counted in /metrics', async () => {
    const registry = new Registry();
    const sse = new SseRegistry(limits);
    registerSseMetrics(registry, sse);
    sse.admit(a1, () => {});
    sse.admit(a1, () => {});
    refusal(() => sse.admit(a1, () => {}));
    const text = await registry.metrics();
    expect(text).toMatch(/^ambient_sse_streams 2$/m);
    expect(text).toMatch(/^ambient_sse_refused_total\{limit="provider"\} 1$/m);
    expect(text).toMatch(/^ambient_sse_refused_total\{limit="process"\} 0$/m);
  });
});
