'use client';
/**
 * Dictation from the microphone: MicrophoneCapture (16 kHz PCM16 frames) → binary frames on /ws/transcribe,
 * partial and final TRANSCRIPT frames back (docs/streaming.md, "Dictation"). Nothing is stored on the server,
 * so there is no resend or reconnect: a dropped connection ends the dictation, and the text already
 * inserted stays in the note.
 */
import { AUTH_PROTOCOL, EOF_FRAME, parseServerFrame } from '@/lib/contracts/stream-protocol';
import { MicrophoneCapture, type CaptureResult } from './microphone';

export interface DictationHandlers {
  /** The words heard so far of the phrase being spoken; replaced by the next partial, cleared by a final. */
  onPartial(text: string): void;
  /** A finished phrase, to insert. */
  onFinal(text: string): void;
  /** The connection or the microphone ended before stop(). */
  onError(message: string): void;
}

/** How long stop() waits for the last phrase after the EOF frame; a wedge guard, not a speed check. */
const CLOSE_WAIT_MS = 60_000;

export function dictationUrl(): string {
  return `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws/transcribe`;
}

export class Dictation {
  private readonly mic: MicrophoneCapture;
  private ws: WebSocket | null = null;
  private pending: ArrayBuffer[] = [];
  private stopping = false;
  private closed: Promise<void> = Promise.resolve();

  constructor(
    private readonly opts: { url: string; transcriptionSessionId: string; token: string },
    private readonly handlers: DictationHandlers,
  ) {
    this.mic = new MicrophoneCapture({
      onFrame: (samples) => this.send(samples.buffer.slice(samples.byteOffset, samples.byteOffset + samples.byteLength) as ArrayBuffer),
      onEnded: () => {
        if (!this.stopping) this.handlers.onError('The microphone stopped.');
        void this.stop();
      },
    });
  }

  /** Opens the connection and the microphone; a failure is described, not thrown. */
  async start(deviceId?: string): Promise<CaptureResult> {
    const ws = new WebSocket(this.opts.url, [AUTH_PROTOCOL, this.opts.transcriptionSessionId, this.opts.token]);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.closed = new Promise<void>((resolve) => ws.addEventListener('close', () => resolve()));
    ws.addEventListener('open', () => {
      for (const buf of this.pending) ws.send(buf);
      this.pending = [];
    });
    ws.addEventListener('message', (e: MessageEvent) => this.onServer(e.data));
    ws.addEventListener('close', (e: CloseEvent) => {
      if (!this.stopping) this.handlers.onError(`Dictation stopped: the connection closed (${e.code}${e.reason ? `, ${e.reason}` : ''}).`);
      this.mic.stop();
    });
    const started = await this.mic.start(deviceId);
    if (!started.ok) {
      this.stopping = true;
      ws.close();
    }
    return started;
  }

  private send(buf: ArrayBuffer): void {
    if (this.stopping) return;
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(buf);
    else if (this.ws?.readyState === WebSocket.CONNECTING) this.pending.push(buf);
  }

  private onServer(data: unknown): void {
    const msg = typeof data === 'string' ? parseServerFrame(data) : null;
    if (!msg) return;
    if (msg.type === 'TRANSCRIPT') {
      // The utterance-end frame repeats the finals already sent, as one text.
      if (msg.utterance_end) return;
      if (msg.is_final) {
        this.handlers.onPartial('');
        if (msg.text.trim()) this.handlers.onFinal(msg.text.trim());
      } else this.handlers.onPartial(msg.text);
    } else if (msg.type === 'ERROR' && !this.stopping) this.handlers.onError(msg.message);
  }

  /** Sends the audio captured so far and EOF, and resolves once the last phrase is back (the server closes). */
  async stop(): Promise<void> {
    if (this.stopping) return this.closed;
    await this.mic.flush();
    this.stopping = true;
    this.mic.stop();
    const ws = this.ws;
    if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(EOF_FRAME));
    else ws?.close();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.closed, new Promise<void>((r) => (timer = setTimeout(r, CLOSE_WAIT_MS)))]);
    clearTimeout(timer);
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close();
    this.handlers.onPartial('');
  }
}
