import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { WebSocket, type RawData } from 'ws';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../context';
import { transcriptionSessions } from '../db/schema';
import type { SpeechSegment, SpeechStream } from '../engines/speech/types';
import { getSpeechEngine } from '../pipeline/engines';
import { bytesToMs, parseClientFrame, type ServerFrame } from './frames';
import { getHub } from './hub';
import type { StreamSlot } from './stream-slots';
import { closeReason, upgradeAuthorised } from './upgrade';

const EVENTS = ['AUDIO_END', 'KEEP_ALIVE', 'CANCEL', 'ABORT'];

interface Utterance {
  stream: SpeechStream | null;
  offsetMs: number;
  finals: SpeechSegment[];
  failed: boolean;
}

/**
 * One /ws/transcribe connection (dictation). Same framing as /ws/ambient; nothing is stored. Results are
 * pushed as recognised; `EVENT AUDIO_END` closes the current utterance and answers with its whole text in a
 * TRANSCRIPT frame with `utterance_end: true`; audio after it starts the next utterance.
 */
export class TranscribeStream {
  private receivedBytes = 0;
  private firstAudioAt: number | null = null;
  private current: Utterance;
  private endTail: Promise<unknown> = Promise.resolve();
  private closing = false;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly app: AppContext,
    private readonly ws: WebSocket,
    readonly transcriptionSessionId: string,
    private readonly slot: StreamSlot,
  ) {
    this.current = this.openUtterance();
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => void this.stop(1000, 'client closed'));
    ws.on('error', (err) => app.log.warn({ transcriptionSessionId, err: err.message }, 'transcribe socket error'));
    this.resetIdle();
    this.send({ type: 'STATUS', status: 'ready' });
  }

  private send(frame: ServerFrame): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  private resetIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const ms = this.app.config.ws.idleTimeoutMs;
    this.idleTimer = setTimeout(() => {
      this.send({ type: 'ERROR', code: 408, message: `no frame for ${ms} ms; send KEEP_ALIVE events while not sending audio` });
      void this.stop(4408, 'idle timeout');
    }, ms);
    this.idleTimer.unref();
  }

  private openUtterance(): Utterance {
    const u: Utterance = { stream: null, offsetMs: bytesToMs(this.receivedBytes), finals: [], failed: false };
    try {
      u.stream = getSpeechEngine(this.app).openStream({
        onSegment: (seg) => {
          const start = u.offsetMs + Math.round(seg.startMs);
          const end = u.offsetMs + Math.round(seg.endMs);
          if (seg.isFinal) u.finals.push(seg);
          if (seg.text.trim()) this.send({ type: 'TRANSCRIPT', is_final: seg.isFinal, text: seg.text, start_offset_ms: start, end_offset_ms: end });
        },
        onError: (err) => {
          u.failed = true;
          this.app.log.warn({ transcriptionSessionId: this.transcriptionSessionId, err: err.message }, 'dictation recognition failed');
        },
      });
    } catch (err) {
      u.failed = true;
      this.app.log.warn({ err: (err as Error).message }, 'speech engine unavailable');
    }
    return u;
  }

  /** Ends the current utterance; its text is sent once the recogniser has flushed it. */
  private finishUtterance(): Promise<unknown> {
    const u = this.current;
    this.current = this.openUtterance();
    this.endTail = this.endTail.then(async () => {
      if (u.stream && !u.failed) await u.stream.end().catch(() => (u.failed = true));
      else u.stream?.close();
      if (u.failed) {
        this.send({ type: 'ERROR', code: 500, message: 'speech recognition failed for this utterance' });
        return;
      }
      const text = u.finals.map((s) => s.text.trim()).filter(Boolean).join(' ');
      const start = u.finals.length ? u.offsetMs + Math.round(u.finals[0]!.startMs) : u.offsetMs;
      const end = u.finals.length ? u.offsetMs + Math.round(u.finals.at(-1)!.endMs) : bytesToMs(this.receivedBytes);
      this.send({ type: 'TRANSCRIPT', is_final: true, utterance_end: true, text, start_offset_ms: start, end_offset_ms: end });
    });
    return this.endTail;
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.closing) return;
    this.resetIdle();
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const max = this.app.config.ws.maxFrameBytes;
    if (buf.length > max) {
      this.send({ type: 'ERROR', code: 413, message: `frame of ${buf.length} bytes exceeds the limit of ${max} bytes` });
      return void this.stop(4413, 'frame too large');
    }
    const frame = parseClientFrame(buf, isBinary);
    switch (frame.kind) {
      case 'error':
        return this.send({ type: 'ERROR', code: 400, message: frame.message });
      case 'start_time':
        return;
      case 'audio': {
        const now = Date.now();
        this.firstAudioAt ??= now;
        const { maxAheadMs } = this.app.config.ws;
        if (bytesToMs(this.receivedBytes + frame.pcm.length) - (now - this.firstAudioAt) > maxAheadMs) {
          this.send({ type: 'ERROR', code: 429, message: `audio is arriving more than ${maxAheadMs} ms ahead of real time; send it at the pace it is recorded` });
          return void this.stop(4429, 'audio faster than real time');
        }
        this.receivedBytes += frame.pcm.length;
        if (this.current.stream && !this.current.failed) {
          try {
            this.current.stream.write(frame.pcm);
          } catch {
            this.current.failed = true;
          }
        }
        return;
      }
      case 'eof':
        void this.finishUtterance().then(() => this.stop(1000, 'audio complete'));
        return;
      case 'event':
        if (frame.event === 'AUDIO_END') return void this.finishUtterance();
        if (frame.event === 'KEEP_ALIVE') return;
        if (frame.event === 'CANCEL' || frame.event === 'ABORT') return void this.stop(1000, 'cancelled');
        return this.send({ type: 'ERROR', code: 400, message: `event must be one of ${EVENTS.join(', ')}` });
    }
  }

  async stop(code: number, reason: string): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.current.stream?.close();
    this.slot.release();
    getHub(this.app).all.delete(this);
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(code, closeReason(reason));
  }
}

export function handleTranscribeUpgrade(app: AppContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  void upgradeAuthorised(
    app,
    req,
    socket,
    head,
    'transcription_session_id',
    async (principal, id) => {
      const row = (
        await app.db
          .select({ id: transcriptionSessions.id })
          .from(transcriptionSessions)
          .where(and(eq(transcriptionSessions.id, id), eq(transcriptionSessions.providerId, principal.providerId), eq(transcriptionSessions.partnerId, principal.partnerId)))
          .limit(1)
      )[0];
      if (!row) throw notFound(`transcription session ${id} not found`);
      return row.id;
    },
    (ws, { target, slot }) => {
      getHub(app).all.add(new TranscribeStream(app, ws, target, slot));
    },
  );
}
