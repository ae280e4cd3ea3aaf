import { describe, expect, it } from 'vitest';
import { SpeechFeed } from './speech-feed';

const frame = (n: number) => Buffer.from([n]);

describe('SpeechFeed', () => {
  it('writes in order, one frame per turn, so other callbacks run between frames of a burst', async () => {
    const log: string[] = [];
    const feed = new SpeechFeed((pcm) => log.push(`write ${pcm[0]}`));
    for (let i = 0; i < 3; i++) feed.push(frame(i));
    expect(log).toEqual([]); // nothing written while the burst is being received
    setImmediate(() => log.push('storage callback'));
    await feed.drained();
    expect(log).toEqual(['write 0', 'storage callback', 'write 1', 'write 2']);
  });

  it('drained() waits for everything pushed; clear() drops the rest and releases the waiters', async () => {
    const written: number[] = [];
    const feed = new SpeechFeed((pcm) => written.push(pcm[0]!));
    await feed.drained();
    for (let i = 0; i < 4; i++) feed.push(frame(i));
    const waiting = feed.drained();
    feed.clear();
    await waiting;
    await new Promise((r) => setImmediate(r));
    expect(written.length).toBeLessThanOrEqual(1);
    feed.push(frame(9));
    await feed.drained();
    expect(written.at(-1)).toBe(9);
  });
});
