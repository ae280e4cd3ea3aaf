/**
 * Silero detectors are native (sherpa-onnx-node, ~12 MB each) and go only when V8 collects their handles.
 * Measured in a child process of its own, from /proc, so that nothing else in the test runner moves the
 * figure: the memory of released detectors beyond the pool must leave the process without any allocation
 * that would make V8 collect by itself.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SEGMENTER = path.resolve(__dirname, '../silero-segmenter.ts');
const STREAMS = 30;

const CHILD = `
import fs from 'node:fs';
const { SileroSegmenter } = await import(${JSON.stringify(SEGMENTER)});
const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let seed = 1;
const noise = Int16Array.from({ length: 32000 }, () => ((seed = (seed * 16807) % 2147483647) % 16000) - 8000);
const warm = new SileroSegmenter();
warm.push(noise);
warm.flush();
await sleep(300);
const base = rss();
const segmenters = Array.from({ length: ${STREAMS} }, () => new SileroSegmenter());
for (const s of segmenters) s.push(noise);
const peak = rss();
// Half end as an abandoned stream does, half as a flushed one; the pool keeps a few of them either way.
segmenters.forEach((s, i) => (i % 2 ? s.release() : s.flush()));
let after = rss();
for (let i = 0; i < 150 && after - base > 120; i++) {
  await sleep(200);
  after = rss();
}
console.log(JSON.stringify({ base, peak, after }));
`;

function runChild(): Promise<{ base: number; peak: number; after: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`child exited with ${code}: ${out}`))));
  });
}

describe.skipIf(!fs.existsSync('/proc/self/status'))('native memory of released Silero detectors', () => {
  it(`leaves the process once ${STREAMS} segmenters are released or flushed, beyond the few the pool keeps`, async () => {
    const { base, peak, after } = await runChild();
    console.log(`segmenter RSS: baseline ${Math.round(base)} MB, ${STREAMS} in use ${Math.round(peak)} MB, after release ${Math.round(after)} MB`);
    // 30 detectors in use: each holds an ONNX Runtime session and a 60 s sample buffer.
    expect(peak - base).toBeGreaterThan(250);
    // The pool keeps 8 (7 more than the baseline's one): about 90 MB.
    expect(after - base).toBeLessThan(120);
  }, 60_000);
});
