import { describe, expect, it } from 'vitest';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import type { ByteRange } from '../blob/index';
import { readPartContent, type StoredPart } from './part-content';

const T0 = Date.parse('2026-12-02T10:20:42.234Z');

// One capture run, no two 1 ms windows alike, so a probe matches only where it was taken.
const capture = Buffer.alloc(100_000 * BYTES_PER_MS);
for (let i = 0; i < capture.length / 2; i++) capture.writeInt16LE(((i * 7919) % 65_536) - 32_768, i * 2);
const slice = (fromMs: number, toMs: number) => capture.subarray(fromMs * BYTES_PER_MS, toMs * BYTES_PER_MS);

/** Parts as stored: each with its bytes and START_TIME (ms after T0). */
function store(...spec: { pcm: Buffer; start: number | null; reason?: string }[]) {
  const blobs = new Map<string, Buffer>();
  const parts: StoredPart[] = spec.map((s, i) => {
    blobs.set(`k${i + 1}`, s.pcm);
    return { sequenceNumber: i + 1, blobKey: `k${i + 1}`, startTimeMs: s.start === null ? null : T0 + s.start, startReason: s.reason ?? null, durableBytes: s.pcm.length };
  });
  const reads: string[] = [];
  const blob = {
    read: async (key: string, range?: ByteRange) => {
      reads.push(key);
      const b = blobs.get(key);
      if (!b) throw new Error(`no blob ${key}`);
      return b.subarray(range?.start ?? 0, range?.end ?? b.length);
    },
  };
  return { parts, blob, reads, blobs };
}

describe('readPartContent', () => {
  it("the browser trial of 2 Dec: a reload's probe part holds only 1 ms of the audio before it", async () => {
    // Part 1 27.2 s, cut by the network; part 2 resent from its end (67.8 s); the reloaded page's probe, dated
    // 200 ms before part 2 ends (its ACKs lost with the reload); part 3 after "Continue recording".
    const { parts, blob } = store(
      { pcm: slice(0, 27_200), start: 0 },
      { pcm: slice(27_200, 95_000), start: 27_200 },
      { pcm: slice(94_800, 94_801), start: 94_800 },
      { pcm: slice(95_000, 97_888), start: 98_207, reason: 'PAGE_RELOADED' },
    );
    expect(await readPartContent(blob, parts)).toEqual([
      { kind: 'audio', probeOf: null },
      { kind: 'audio', probeOf: null },
      { kind: 'probe', repeats: 2 },
      { kind: 'audio', probeOf: null },
    ]);
  });

  it('a resend that opens with a probe continues the part before from where it ends', async () => {
    // The server held 2.3 s, the recorder's last ACK said 1.9 s: the probe (1 ms from 1.9 s, dated there), then 2.3 s on.
    const { parts, blob } = store({ pcm: slice(0, 2_300), start: 0 }, { pcm: Buffer.concat([slice(1_900, 1_901), slice(2_300, 5_000)]), start: 1_900 });
    expect(await readPartContent(blob, parts)).toEqual([
      { kind: 'audio', probeOf: null },
      { kind: 'audio', probeOf: { sequenceNumber: 1, endMs: T0 + 2_300 } },
    ]);
  });

  it('reads bytes only for parts whose times make them a probe resend, and a few of them', async () => {
    const { parts, blob, reads } = store({ pcm: slice(0, 1_000), start: 0 }, { pcm: slice(1_000, 2_000), start: 1_000 }, { pcm: slice(2_000, 3_000), start: 30_000 });
    expect((await readPartContent(blob, parts)).map((c) => c.kind)).toEqual(['audio', 'audio', 'audio']);
    expect(reads).toEqual([]);
  });

  it('keeps as its own audio a 1 ms part that is not the stored audio at its START_TIME, or whose audio cannot be read', async () => {
    const unlike = store({ pcm: slice(0, 2_300), start: 0 }, { pcm: slice(1_500, 1_501), start: 1_900 });
    expect((await readPartContent(unlike.blob, unlike.parts)).map((c) => c.kind)).toEqual(['audio', 'audio']);
    const lost = store({ pcm: slice(0, 2_300), start: 0 }, { pcm: slice(1_900, 1_901), start: 1_900 });
    lost.blobs.delete('k1');
    expect((await readPartContent(lost.blob, lost.parts)).map((c) => c.kind)).toEqual(['audio', 'audio']);
  });

  it('never takes as a probe a part the recorder began after a stretch it did not record, or one without START_TIME', async () => {
    const reloaded = store({ pcm: slice(0, 2_300), start: 0 }, { pcm: slice(1_900, 1_901), start: 1_900, reason: 'PAGE_RELOADED' });
    expect((await readPartContent(reloaded.blob, reloaded.parts)).map((c) => c.kind)).toEqual(['audio', 'audio']);
    const undated = store({ pcm: slice(0, 2_300), start: null }, { pcm: slice(1_900, 1_901), start: 1_900 });
    expect((await readPartContent(undated.blob, undated.parts)).map((c) => c.kind)).toEqual(['audio', 'audio']);
  });

  it('says an empty part is empty and passes over it, as the decoder does', async () => {
    const { parts, blob } = store({ pcm: slice(0, 2_300), start: 0 }, { pcm: Buffer.alloc(0), start: 5_000 }, { pcm: slice(1_900, 1_901), start: 1_900 });
    expect(await readPartContent(blob, parts)).toEqual([{ kind: 'audio', probeOf: null }, { kind: 'empty' }, { kind: 'probe', repeats: 1 }]);
  });
});
