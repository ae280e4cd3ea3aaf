/**
 * Sound the browser never delivered from the microphone: when the machine is too busy, the audio thread can miss
 * its deadlines and the captured timeline falls behind the clock for good (a browser trial of 28 Nov lost ~5.7 s of a
 * 95 s visit this way with "Connected" on screen). Nothing can bring that audio back, but the clinician can be told.
 *
 * Each frame's lag is wall time since capture started minus audio captured. Frames that arrive late but complete
 * (a stalled page catching up) raise the lag only until the burst; the smallest lag over the last `settleMs` ignores
 * them. Lost audio raises it for good, and the smallest lag steps up once the frames before the loss have left the
 * window. A slow clock drift moves it by milliseconds a window, never by `minGapMs` at once.
 */
export class CaptureGaps {
  private startAt: number | null = null;
  private capturedMs = 0;
  private recent: Array<{ at: number; lag: number }> = [];
  private settled: number | null = null;
  private risenSince: number | null = null;
  /** Sound lost so far, in ms. */
  lostMs = 0;

  constructor(
    private readonly sampleRate = 16_000,
    private readonly settleMs = 3_000,
    private readonly minGapMs = 500,
  ) {}

  /** Capture (re)starts (start, resume): the wait for the first frame is the device starting, not a gap. */
  restart(): void {
    this.startAt = null;
    this.capturedMs = 0;
    this.recent = [];
    this.settled = null;
    this.risenSince = null;
  }

  /** A frame of `samples` arrived at `now` (ms); returns the new total lost when this frame confirmed a gap. */
  frame(samples: number, now: number): number | null {
    const ms = (samples * 1000) / this.sampleRate;
    this.startAt ??= now - ms;
    this.capturedMs += ms;
    this.recent.push({ at: now, lag: now - this.startAt - this.capturedMs });
    while (this.recent.length > 1 && this.recent[0]!.at < now - this.settleMs) this.recent.shift();
    let least = Infinity;
    for (const r of this.recent) least = Math.min(least, r.lag);
    if (this.settled === null || least - this.settled < this.minGapMs) {
      // Keeping pace (or a drift): the lag follows; a rise that fell back was frames arriving late, not lost.
      this.settled = least;
      this.risenSince = null;
      return null;
    }
    // Risen: lost only if it stays risen for a whole window (the rest of a late burst would have brought it down).
    this.risenSince ??= now;
    if (now - this.risenSince < this.settleMs) return null;
    this.lostMs += least - this.settled;
    this.settled = least;
    this.risenSince = null;
    return this.lostMs;
  }
}
