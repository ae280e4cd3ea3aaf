import { describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import { LocalStreamSlots } from './stream-slots';

const a1 = { providerId: 'prov-a1', partnerId: 'part-a' };
const a2 = { providerId: 'prov-a2', partnerId: 'part-a' };
const b1 = { providerId: 'prov-b1', partnerId: 'part-b' };

async function refusal(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  const err = await p.then(() => null, (e: unknown) => e);
  if (!isApiError(err)) throw new Error('expected a refusal');
  return { status: err.status, message: err.message };
}

describe('LocalStreamSlots', () => {
  it('refuses a provider over its cap with 429 naming STREAMS_PER_PROVIDER, and not another provider', async () => {
    const slots = new LocalStreamSlots({ perProvider: 2, perPartner: 10 });
    await slots.acquire(a1);
    await slots.acquire(a1);
    const r = await refusal(slots.acquire(a1));
    expect(r.status).toBe(429);
    expect(r.message).toMatch(/2 open streams.*STREAMS_PER_PROVIDER/);
    await slots.acquire(a2);
    expect(slots.count({ providerId: a1.providerId })).toBe(2);
    expect(slots.count({ partnerId: 'part-a' })).toBe(3);
  });

  it('refuses a partner over its cap with 429 naming STREAMS_PER_PARTNER, and not another partner', async () => {
    const slots = new LocalStreamSlots({ perProvider: 5, perPartner: 3 });
    await slots.acquire(a1);
    await slots.acquire(a1);
    await slots.acquire(a2);
    const r = await refusal(slots.acquire(a2));
    expect(r.message).toMatch(/partner already has 3 open streams.*STREAMS_PER_PARTNER/);
    await slots.acquire(b1);
  });

  it('gives a slot back once however often release is called, and forgets holders at zero', async () => {
    const slots = new LocalStreamSlots({ perProvider: 1, perPartner: 1 });
    const s = await slots.acquire(a1);
    s.release();
    s.release();
    expect(slots.count({ providerId: a1.providerId })).toBe(0);
    const again = await slots.acquire(a1);
    // A double release of the first slot must not free the second one.
    s.release();
    await expect(slots.acquire(a1)).rejects.toMatchObject({ status: 429 });
    again.release();
    await slots.acquire(a2);
  });

  it('0 means no cap', async () => {
    const slots = new LocalStreamSlots({ perProvider: 0, perPartner: 0 });
    for (let i = 0; i < 50; i++) await slots.acquire(a1);
    expect(slots.count({ partnerId: 'part-a' })).toBe(50);
  });
});
