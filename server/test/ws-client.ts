import { WebSocket } from 'ws';
import { BYTES_PER_MS, EOF_FRAME } from '../../lib/contracts/stream-protocol';

export type Frame = Record<string, any>;

/** A test client for /ws/ambient and /ws/transcribe that records every frame and the close. */
export class TestSocket {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];
  closeInfo: { code: number; reason: string } | null = null;
  /** The client's own error, if any: a frame it could not parse closes with 1006 and says why only here. */
  error: Error | null = null;
  protocol = '';

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.frames.push(JSON.parse(data.toString()));
      this.wake();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString() };
        resolve(this.closeInfo);
        this.wake();
      }),
    );
    ws.on('error', (err) => (this.error ??= err));
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  static open(url: string, opts: { protocols?: string[]; headers?: Record<string, string> } = {}): Promise<TestSocket> {
    const ws = new WebSocket(url, opts.protocols ?? [], { headers: opts.headers });
    const t = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        t.protocol = ws.protocol;
        resolve(t);
      });
      ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Resolves with the first recorded frame matching `pred` (waiting for it), or rejects once the socket closes without one. */
  async next(pred: (f: Frame) => boolean, what = 'frame', timeoutMs = 120_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.frames.find(pred);
      if (hit) return hit;
      if (this.closeInfo) throw new Error(`socket closed (${this.closeInfo.code} ${this.closeInfo.reason}${this.error ? `; client error: ${this.error.message}` : ''}) before ${what}; frames: ${JSON.stringify(this.frames.slice(-5))}`);
      if (Date.now() > deadline) throw new Error(`no ${what} in ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 500);
      });
    }
  }

  json(obj: unknown): void {
    this.ws.send(JSON.stringify(obj));
  }

  startTime(iso = new Date().toISOString()): void {
    this.json({ type: 'START_TIME', data: Buffer.from(iso).toString('base64') });
  }

  audio(pcm: Buffer): void {
    this.json({ type: 'AUDIO', data: pcm.toString('base64') });
  }

  eof(): void {
    this.json(EOF_FRAME);
  }

  event(event: string): void {
    this.json({ type: 'EVENT', event });
  }

  /** Sends PCM in ~100 ms frames; `realTime` paces them as a microphone would. */
  async sendPcm(pcm: Buffer, opts: { frameMs?: number; realTime?: boolean; binary?: boolean } = {}): Promise<void> {
    const frameBytes = (opts.frameMs ?? 100) * BYTES_PER_MS;
    for (let o = 0; o < pcm.length; o += frameBytes) {
      const chunk = pcm.subarray(o, Math.min(pcm.length, o + frameBytes));
      if (opts.binary) this.ws.send(chunk);
      else this.audio(chunk);
      if (opts.realTime) await new Promise((r) => setTimeout(r, opts.frameMs ?? 100));
    }
  }

  lastAckMs(): number {
    const acks = this.frames.filter((f) => f.type === 'ACK');
    return acks.length ? acks[acks.length - 1]!.received_ms : 0;
  }

  close(): void {
    this.ws.close();
  }

  terminate(): void {
    this.ws.terminate();
  }
}
