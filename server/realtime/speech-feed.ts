/**
 * Audio for the live recogniser, written one frame per event-loop turn instead of as each frame arrives. The
 * recogniser's voice-activity detector runs on the event loop (about 5 ms of CPU per second of audio, far
 * more on a loaded machine): a backlog resent at once after an outage (a minute of audio in one burst) would
 * otherwise hold the loop for seconds, and with it the storage callbacks and ACKs of every stream (issue 25).
 * Order is kept; nothing is dropped unless the feed is cleared.
 */
export class SpeechFeed {
  private queue: Buffer[] = [];
  private scheduled = false;
  private idle: Array<() => void> = [];

  constructor(private readonly write: (pcm: Buffer) => void) {}

  push(pcm: Buffer): void {
    this.queue.push(pcm);
    this.schedule();
  }

  /** Resolves once everything pushed so far has been written. */
  drained(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Drops what was not written yet (the recogniser's result is not wanted). */
  clear(): void {
    this.queue = [];
    for (const f of this.idle.splice(0)) f();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const pcm = this.queue.shift();
      if (pcm) this.write(pcm);
      if (this.queue.length) this.schedule();
      else for (const f of this.idle.splice(0)) f();
    });
  }
}
