/**
 * Why the recorder's capture starts a recording part of its own, which the server gives the recording gap
 * before that part as its cause (START_TIME's `reason`, docs/streaming.md). Pauses and sound the microphone
 * never delivered are known where they happen (resume, CaptureClock); this tells the starts of capture apart.
 */
import type { ClientFrame, PartStartReason } from '../contracts/stream-protocol';

export class CaptureStarts {
  private captured = false;

  /**
   * Capture starts (Start, Continue recording): after this recorder captured before, the microphone was lost
   * (the only way capture stops without End or Cancel); before that, when `continuesVisit` (the visit was
   * recording before this page: a reload, or audio a page kept), the recording stopped when the last page went
   * away; otherwise nothing stopped anything (the visit's first recording).
   */
  started(continuesVisit: boolean): PartStartReason | undefined {
    const reason = this.captured ? 'MICROPHONE_DISCONNECTED' : continuesVisit ? 'PAGE_RELOADED' : undefined;
    this.captured = true;
    return reason;
  }
}

/** A connection's START_TIME: the wall clock of its first sample, and why its part began, when it begins one. */
export function startTimeFrame(at: number, reason: PartStartReason | null): ClientFrame {
  const data = btoa(new Date(at).toISOString());
  return reason ? { type: 'START_TIME', data, reason } : { type: 'START_TIME', data };
}
