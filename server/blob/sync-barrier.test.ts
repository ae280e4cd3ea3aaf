import { describe, expect, it } from 'vitest';
import { SyncBarrier } from './sync-barrier';

/** A flush the test finishes by hand, recording when each one started. */
function manualFlush() {
  const started: Array<{ finish: (err?: Error) => void }> = [];
  const flush = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: (err) => (err ? reject(err) : resolve()) });
    });
  return { started, flush };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('SyncBarrier', () => {
  it('covers every caller that arrives before a flush starts with that one flush', async () => {
    const m = manualFlush();
    const barrier = new SyncBarrier(m.flush);
    let done = 0;
    const all = Array.from({ length: 100 }, () => barrier.sync().then(() => done++));
    await tick();
    expect(m.started).toHaveLength(1);
    m.started[0]!.finish();
    await Promise.all(all);
    expect(done).toBe(100);
    expect(barrier.flushes).toBe(1);
  });

  it('makes a caller that arrives during a flush wait for the next one, which starts after it', async () => {
    const m = manualFlush();
    const barrier = new SyncBarrier(m.flush);
    const first = barrier.sync();
    await tick();
    expect(m.started).toHaveLength(1);
    let lateDone = false;
    const late = barrier.sync().then(() => (lateDone = true));
    const alsoLate = barrier.sync();
    await tick();
    // The running flush may have begun before the late caller's write: it must not resolve the late caller.
    expect(m.started).toHaveLength(1);
    m.started[0]!.finish();
    await first;
    await tick();
    expect(lateDone).toBe(false);
    expect(m.started).toHaveLength(2);
    m.started[1]!.finish();
    await Promise.all([late, alsoLate]);
    expect(lateDone).toBe(true);
    expect(barrier.flushes).toBe(2);
  });

  it('rejects the callers of a failed flush and flushes again for the next', async () => {
    const m = manualFlush();
    const barrier = new SyncBarrier(m.flush);
    const failed = barrier.sync();
    await tick();
    m.started[0]!.finish(new Error('EIO'));
    await expect(failed).rejects.toThrow('EIO');
    const next = barrier.sync();
    await tick();
    m.started[1]!.finish();
    await expect(next).resolves.toBeUndefined();
  });
});
