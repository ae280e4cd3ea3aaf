import { describe, expect, it } from 'vitest';
import { CaptureClock } from './capture-clock';

const FRAME = 320; // 20 ms at 16 kHz
const T0 = 1_764_000_000_000;

describe('CaptureClock', () => {
  it('dates frames by the audio captured, so a late burst does not look like sound missing', () => {
    const clock = new CaptureClock();
    const ats: number[] = [];
    // 1 s on time, then 25 frames held back 1.5 s and delivered at once, then on time again.
    for (let i = 0; i < 50; i++) ats.push(clock.frame(FRAME, i * 20 + 20, T0 + i * 20 + 20).at);
    for (let i = 50; i < 75; i++) ats.push(clock.frame(FRAME, 75 * 20 + 1500, T0 + 75 * 20 + 1500).at);
    for (let i = 75; i < 150; i++) ats.push(clock.frame(FRAME, i * 20 + 20 + 1500, T0 + i * 20 + 20 + 1500).at);
    // Contiguous: each frame begins where the one before it ended, whatever its arrival.
    ats.forEach((at, i) => expect(at).toBe(T0 + i * 20));
  });

  it('moves on by the sound the microphone never delivered, from the frame that confirms it', () => {
    const clock = new CaptureClock();
    const out: Array<{ at: number; lost: number | null }> = [];
    let t = 0;
    for (let i = 0; i < 250; i++) out.push(clock.frame(FRAME, (t += 20), T0 + t)); // 5 s on time
    t += 3000; // 3 s the audio thread never delivered
    for (let i = 0; i < 250; i++) out.push(clock.frame(FRAME, (t += 20), T0 + t));
    const confirmed = out.findIndex((f) => f.lost !== null);
    expect(confirmed).toBeGreaterThan(250);
    expect(out[confirmed]!.lost).toBeCloseTo(3000, -1);
    // Before it: the audio's own clock; from it on: 3 s later, as the sound was.
    expect(out[confirmed - 1]!.at).toBe(T0 + (confirmed - 1) * 20);
    expect(out[confirmed]!.at).toBeCloseTo(T0 + confirmed * 20 + 3000, -1);
  });

  it('says a pause of a second or more is a stretch of its own, and restarts from the next frame either way', () => {
    const clock = new CaptureClock();
    clock.frame(FRAME, 20, T0 + 20);
    clock.pause(T0 + 1000);
    expect(clock.resume(T0 + 1400)).toBe(false);
    expect(clock.frame(FRAME, 1420, T0 + 1420).at).toBe(T0 + 1400);
    clock.pause(T0 + 2000);
    expect(clock.resume(T0 + 9000)).toBe(true);
    expect(clock.frame(FRAME, 9020, T0 + 9020).at).toBe(T0 + 9000);
  });
});
