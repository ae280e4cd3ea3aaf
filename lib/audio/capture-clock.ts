import { CaptureGaps } from './capture-gaps';

/** The server lists a stretch between recording parts as not recorded from this long (MIN_RECORDING_GAP_MS). */
export const LISTED_GAP_MS = 1000;

/**
 * The wall clock of captured audio, which dates each recording part (its START_TIME): when a run of capture
 * began, plus the audio captured since, plus the sound the microphone never delivered (CaptureGaps). Not each
 * frame's arrival: frames arrive in bursts when the page is busy, so a resend after an outage, dated by
 * arrival, began up to a burst's delay after the audio before it ended, and the server would report that
 * stretch (1 s or more between parts) as not recorded when it was.
 */
export class CaptureClock {
  private readonly gaps: CaptureGaps;
  private startAt: number | null = null;
  private ms = 0;
  private pausedAt: number | null = null;

  constructor(private readonly sampleRate = 16_000) {
    this.gaps = new CaptureGaps(sampleRate);
  }

  /** Capture (re)starts (start, resume): the next frame's arrival dates the run. */
  restart(): void {
    this.gaps.restart();
    this.startAt = null;
    this.ms = 0;
  }

  /** The clinician paused capture at `now` (Date.now()). */
  pause(now: number): void {
    this.pausedAt = now;
  }

  /**
   * Capture resumes at `now`: the clock restarts, and the answer is whether the pause was long enough for the
   * server to list as not recorded, so that what follows should be a recording part of its own.
   */
  resume(now: number): boolean {
    const listed = this.pausedAt !== null && now - this.pausedAt >= LISTED_GAP_MS;
    this.pausedAt = null;
    this.restart();
    return listed;
  }

  /**
   * Dates a frame of `samples` that arrived at `perfNow` (performance.now()) and `wallNow` (Date.now()): `at` is
   * its first sample's wall clock; `lost` the total sound lost so far when this frame confirmed a new gap, else null.
   */
  frame(samples: number, perfNow: number, wallNow: number): { at: number; lost: number | null } {
    const lostBefore = this.gaps.lostMs;
    const lost = this.gaps.frame(samples, perfNow);
    if (lost !== null) this.ms += lost - lostBefore;
    const ms = (samples * 1000) / this.sampleRate;
    this.startAt ??= wallNow - ms;
    const at = this.startAt + this.ms;
    this.ms += ms;
    return { at, lost };
  }
}
