interface Pending {
  buf: Buffer;
  resolve: (size: number) => void;
  reject: (err: Error) => void;
}

/**
 * Orders appends to one key and batches the ones that arrive while a flush is in progress into the next
 * flush, so a stream of small frames costs one durable write per flush rather than one per frame.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private running = false;
  private idle: Array<() => void> = [];

  constructor(private readonly flush: (buf: Buffer) => Promise<number>) {}

  append(buf: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ buf, resolve, reject });
      if (!this.running) void this.run();
    });
  }

  /** Resolves once every append queued so far has settled. */
  drain(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      try {
        const size = await this.flush(batch.length === 1 ? batch[0]!.buf : Buffer.concat(batch.map((p) => p.buf)));
        for (const p of batch) p.resolve(size);
      } catch (err) {
        for (const p of batch) p.reject(err as Error);
      }
    }
    this.running = false;
    for (const f of this.idle.splice(0)) f();
  }
}
