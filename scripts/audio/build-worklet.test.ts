import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundleWorklet, WORKLET_OUTPUT } from './build-worklet';

describe('the AudioWorklet bundle', () => {
  it('public/audio/pcm-worklet.js is what bundling lib/audio/pcm-worklet.ts gives (npm run build:worklet)', async () => {
    const built = await bundleWorklet();
    expect(fs.readFileSync(WORKLET_OUTPUT, 'utf8') === built, 'run npm run build:worklet and commit the result').toBe(true);
  });

  it('carries the resampler without the stream protocol schemas', async () => {
    const built = await bundleWorklet();
    expect(built).toMatch(/CapturePipeline = class/);
    expect(built).toMatch(/registerProcessor\(["']pcm-capture["']/);
    expect(built).not.toContain('discriminatedUnion');
  });
});
