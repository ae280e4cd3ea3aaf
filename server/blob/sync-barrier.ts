/**
 * Many writers, one flush: a caller's promise resolves after a flush that *started* after its call, so
 * everything the caller wrote before calling is covered. Callers that arrive while a flush runs share the
 * next one; at most one flush runs at a time.
 */
export class SyncBarrier {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** Flushes started, for the tests and benches. */
  flushes = 0;

  constructor(private readonly flush: () => Promise<void>) {}

  sync(): Promise<void> {
    this.next ??= this.flushAfterRunning();
    return this.next;
  }

  private async flushAfterRunning(): Promise<void> {
    // The flush under way may have started before this caller wrote, so it cannot cover it. The await also
    // yields when nothing runs, so `next` is assigned before it is cleared here.
    await (this.running ? this.running.catch(() => {}) : undefined);
    this.next = null;
    this.flushes++;
    const run = this.flush();
    this.running = run;
    try {
      await run;
    } finally {
      if (this.running === run) this.running = null;
    }
  }
}
