import { describe, expect, it } from 'vitest';
import { StatusCache } from './status-cache';

const owner = { providerId: 'prov', partnerId: 'part' };

/**
 * Issue 26 item 6: a status that can still change is answered from the cache for a bounded time only, so a
 * change the bus never delivered (while it looked live) is read from the database after at most the expiry.
 */
describe('StatusCache expiry', () => {
  it('drops a non-final status once it is ttlMs old, and keeps a final one', () => {
    let now = 1_000;
    const c = new StatusCache(() => true, { ttlMs: 5_000, now: () => now });
    c.fill('running', { ...owner, status: 'running', seq: 3 }, c.mark());
    c.apply({ sessionId: 'done', ...owner, status: 'completed', seq: 9 });
    now += 4_999;
    expect(c.get('running')?.status).toBe('running');
    now += 1;
    expect(c.get('running')).toBeUndefined();
    expect(c.get('done')?.status).toBe('completed');
    // A read from the database fills it again, for another ttlMs.
    c.fill('running', { ...owner, status: 'completed', seq: 4 }, c.mark());
    now += 60_000;
    expect(c.get('running')?.status).toBe('completed');
  });

  it('counts from the last change heard, not the first fill', () => {
    let now = 0;
    const c = new StatusCache(() => true, { ttlMs: 5_000, now: () => now });
    c.fill('s', { ...owner, status: 'created', seq: 1 }, c.mark());
    now = 4_000;
    c.apply({ sessionId: 's', ...owner, status: 'ready', seq: 2 });
    now = 8_000;
    expect(c.get('s')?.status).toBe('ready');
    now = 9_000;
    expect(c.get('s')).toBeUndefined();
  });

  it('keeps entries without expiry when ttlMs is 0', () => {
    let now = 0;
    const c = new StatusCache(() => true, { ttlMs: 0, now: () => now });
    c.fill('s', { ...owner, status: 'ready', seq: 1 }, c.mark());
    now = 1e9;
    expect(c.get('s')?.status).toBe('ready');
  });
});
