/**
 * How long a stream's appends took from the frame's arrival to durable storage (the ACK), logged when the
 * stream ends: the figure that tells a slow disk or a starved process from a slow client (issue 25).
 */
export class AppendTiming {
  private readonly openedAt = Date.now();
  private count = 0;
  private bytes = 0;
  private totalMs = 0;
  private maxMs = 0;

  /** Call when the append starts; the returned function when it is durable. */
  begin(bytes: number): () => void {
    const began = performance.now();
    return () => {
      const took = performance.now() - began;
      this.count++;
      this.bytes += bytes;
      this.totalMs += took;
      this.maxMs = Math.max(this.maxMs, took);
    };
  }

  summary(): { openMs: number; audioMs: number; appends: number; appendToAckMeanMs: number; appendToAckMaxMs: number } {
    return {
      openMs: Date.now() - this.openedAt,
      audioMs: Math.round(this.bytes / 32),
      appends: this.count,
      appendToAckMeanMs: this.count ? Math.round(this.totalMs / this.count) : 0,
      appendToAckMaxMs: Math.round(this.maxMs),
    };
  }
}
