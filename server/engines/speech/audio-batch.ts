import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

/**
 * Audio reaches the detector and the decoder in half-second batches, not frame by frame: at real time each
 * hand-over finds the detector's and the decoder's data gone cold, so one Festival visit cost 0.80-0.96
 * CPU-s of detector and 6.9-7.3 of decoder fed 100 ms at a time against 0.43-0.56 and 5.7-6.7 fed 500 ms at
 * a time (bench/speech/RESULTS.md, 2 Dec). Partial hypotheses come once per half second anyway (worker.ts).
 */
export const BATCH_BYTES = SAMPLE_RATE_HZ * 2 * 0.5;
/** A shorter batch is handed over once no audio has come for this long: the last words before a pause. */
export const BATCH_IDLE_MS = 250;

/** Gathers written audio into batches for `sink`; `onError` gets what the sink throws from the idle timer. */
export class AudioBatcher {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: (pcm: Buffer) => void,
    private readonly onError: (e: Error) => void,
  ) {}

  push(pcm: Buffer): void {
    this.held.push(pcm);
    this.heldBytes += pcm.length;
    if (this.heldBytes >= BATCH_BYTES) return this.flush();
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => this.flushFromTimer(), BATCH_IDLE_MS).unref();
  }

  /** Hands over what is held now; what the sink throws goes to the caller. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.heldBytes) return;
    const pcm = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.sink(pcm);
  }

  /** Drops what is held (the stream was closed without its result). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held = [];
    this.heldBytes = 0;
  }

  private flushFromTimer(): void {
    try {
      this.flush();
    } catch (e) {
      this.onError(e as Error);
    }
  }
}
