import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedSpeechEngine } from '../embedded.js';
import { synthesize } from '../synth.js';

const hasLib = ['libpocketsphinx.so.3', 'libsphinxbase.so.3'].some((l) =>
  ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib'].some((d) => fs.existsSync(`${d}/${l}`)),
);
if (!hasLib) console.warn('decoder lifecycle tests skipped: apt-get install pocketsphinx pocketsphinx-en-us');

const rssMb = (): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

// Issue #12: every stream held a ~18 MB decoder from the moment it opened, and the memory stayed with the
// process after the stream ended.
describe.skipIf(!hasLib)('decoder lifecycle', () => {
  let engine: EmbeddedSpeechEngine;
  const speech = synthesize('The patient has had a cough and a fever since Monday.');
  beforeAll(async () => {
    engine = new EmbeddedSpeechEngine({ poolSize: 2, lm: 'stock' });
    await engine.warm();
  }, 240_000);
  afterAll(() => engine?.close());

  it('holds no decoder for a stream until speech arrives, and none after it ends', async () => {
    const streams = Array.from({ length: 10 }, () => engine.openStream({ onSegment() {} }));
    for (const s of streams) s.write(Buffer.alloc(32 * 1000));
    expect(engine.pool.openStreams).toBe(0);
    const finals: string[] = [];
    const talking = engine.openStream({ onSegment: (seg) => seg.isFinal && finals.push(seg.text) });
    talking.write(speech);
    expect(engine.pool.openStreams).toBe(1);
    await talking.end();
    await Promise.all(streams.map((s) => s.end()));
    expect(engine.pool.openStreams).toBe(0);
    expect(finals.join(' ')).toMatch(/\w+/);
  }, 120_000);

  it('returns decoder memory to the system once streams end', async () => {
    const warmUp = engine.openStream({ onSegment() {} });
    warmUp.write(speech);
    await warmUp.end();
    await new Promise((r) => setTimeout(r, 500));
    const baseline = rssMb();
    const streams = Array.from({ length: 8 }, () => engine.openStream({ onSegment() {} }));
    for (const s of streams) s.write(speech);
    await Promise.all(streams.map((s) => s.end()));
    // The trim runs in each decoder thread after its closes; poll for it rather than sleep a fixed time.
    let after = rssMb();
    for (let i = 0; i < 50 && after > baseline + 100; i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = rssMb();
    }
    // 8 decoders are 150 MB or more; before the fix nearly all of it stayed.
    expect(after).toBeLessThan(baseline + 100);
  }, 600_000);

  it('closes with every thread ending itself between library calls, even with audio queued far behind', async () => {
    const busy = new EmbeddedSpeechEngine({ poolSize: 2, lm: 'stock' });
    await busy.warm();
    const streams = [0, 1].map(() => busy.openStream({ onSegment() {} }));
    // Two minutes of speech each, written at once: the threads are mid-decode with most of it still queued.
    for (const s of streams) for (let k = 0; k < 40; k++) s.write(speech);
    await new Promise((r) => setTimeout(r, 300));
    await busy.close();
    expect(busy.pool.exitCodes).toEqual([0, 0]);
  }, 240_000);
});

