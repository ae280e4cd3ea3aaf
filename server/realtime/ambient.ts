import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { WebSocket, type RawData } from 'ws';
import { conflict } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import type { AppContext } from '../context';
import { ambientSessions, recordings, transcriptEntries } from '../db/schema';
import { getBlobStore, type BlobStore } from '../blob/index';
import { getOwnedSession } from '../domain/sessions/get-owned-session';
import { transitionSession } from '../domain/sessions/transition-session';
import type { SpeechBias, SpeechSegment, SpeechStream } from '../engines/speech/types';
import { buildSpeechBias } from '../domain/sessions/build-speech-bias';
import { getSpeechEngine } from '../pipeline/engines';
import { openRecording, type OpenedRecording } from '../pipeline/open-recording';
import { closeRecording } from '../pipeline/close-recording';
import { enqueueFinalisation } from '../pipeline/enqueue-finalisation';
import { enqueueSessionWebhook } from '../webhooks/enqueue-session-webhook';
import { bytesToMs, BYTES_PER_MS, parseClientFrame, type ServerFrame } from './frames';
import { getHub, type ActiveStream } from './hub';
import type { StreamSlot } from './stream-slots';
import { closeReason, upgradeAuthorised } from './upgrade';

const EVENTS = ['KEEP_ALIVE', 'PAUSE', 'RESUME', 'CANCEL', 'ABORT'];
/** How often the stream records its durable length and notices a status change made elsewhere (REST end or abort). */
const TICK_MS = 2_000;
/** The live recogniser gets this long after the last audio to emit its final segments. */
const SPEECH_END_TIMEOUT_MS = 30_000;

type Ending = { kind: 'eof' } | { kind: 'cancel' } | { kind: 'abort' } | { kind: 'drop'; code: number; reason: string };

/** One /ws/ambient connection: one recording of one session. */
export class AmbientStream implements ActiveStream {
  private readonly blob: BlobStore;
  private appendTail: Promise<unknown> = Promise.resolve();
  private liveTail: Promise<unknown> = Promise.resolve();
  private acceptedBytes = 0;
  private durableBytes = 0;
  private recordedDurable = 0;
  private ackedMs = -1;
  private firstAudioAt: number | null = null;
  private startTimeSet = false;
  private paused = false;
  private ending: Promise<void> | null = null;
  private speech: SpeechStream | null = null;
  private liveFailed = false;
  private liveFedBytes = 0;
  private nextLivePosition: number;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly tick: NodeJS.Timeout;

  constructor(
    private readonly app: AppContext,
    private readonly ws: WebSocket,
    readonly sessionId: string,
    private readonly rec: OpenedRecording,
    private readonly slot: StreamSlot,
    private readonly bias?: SpeechBias,
  ) {
    this.blob = getBlobStore(app);
    this.nextLivePosition = rec.nextLivePosition;
    this.openSpeech();
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('close', () => void this.end({ kind: 'drop', code: 1000, reason: 'client closed' }));
    ws.on('error', (err) => app.log.warn({ sessionId, err: err.message }, 'ambient socket error'));
    this.resetIdle();
    this.tick = setInterval(() => void this.onTick(), TICK_MS);
    this.tick.unref();
    this.send({ type: 'STATUS', status: 'ready', recording_id: rec.id, sequence_number: rec.sequenceNumber });
  }

  private send(frame: ServerFrame): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  private error(code: number, message: string): void {
    this.send({ type: 'ERROR', code, message });
  }

  /** An ERROR frame, then the connection ends; the session stays open for a new connection. */
  private fatal(code: number, closeCode: number, message: string): void {
    this.error(code, message);
    void this.end({ kind: 'drop', code: closeCode, reason: message });
  }

  private resetIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const ms = this.app.config.ws.idleTimeoutMs;
    this.idleTimer = setTimeout(() => this.fatal(408, 4408, `no frame for ${ms} ms; send KEEP_ALIVE events while not sending audio`), ms);
    this.idleTimer.unref();
  }

  private openSpeech(): void {
    try {
      this.speech = getSpeechEngine(this.app).openStream({
        onSegment: (seg) => this.onSegment(seg),
        bias: this.bias,
        onError: (err) => {
          if (this.liveFailed) return;
          this.liveFailed = true;
          this.app.log.warn({ sessionId: this.sessionId, err: err.message }, 'live transcription failed; the final pass will transcribe this recording');
        },
      });
    } catch (err) {
      this.liveFailed = true;
      this.app.log.warn({ sessionId: this.sessionId, err: (err as Error).message }, 'speech engine unavailable; streaming without a live transcript');
    }
  }

  private onSegment(seg: SpeechSegment): void {
    const start = this.rec.sessionOffsetMs + Math.round(seg.startMs);
    const end = this.rec.sessionOffsetMs + Math.round(seg.endMs);
    if (!seg.isFinal) {
      this.send({ type: 'TRANSCRIPT', is_final: false, text: seg.text, start_offset_ms: start, end_offset_ms: end });
      return;
    }
    if (!seg.text.trim()) return;
    const id = crypto.randomUUID();
    const position = this.nextLivePosition++;
    this.liveTail = this.liveTail
      .then(async () => {
        await this.app.db.insert(transcriptEntries).values({
          id,
          sessionId: this.sessionId,
          recordingId: this.rec.id,
          position,
          source: 'live',
          text: seg.text,
          speaker: seg.speaker ?? 'UNKNOWN',
          langId: seg.lang && seg.lang !== 'en' ? seg.lang : 'en-US',
          startOffsetMs: start,
          endOffsetMs: end,
          confidence: seg.confidence ?? null,
          words: seg.words.some((w) => w.confidence !== undefined)
            ? seg.words.map((w) => ({ text: w.word, startMs: this.rec.sessionOffsetMs + w.startMs, endMs: this.rec.sessionOffsetMs + w.endMs, confidence: w.confidence ?? 1 }))
            : null,
        });
        this.send({ type: 'TRANSCRIPT', is_final: true, transcript_id: id, text: seg.text, start_offset_ms: start, end_offset_ms: end, ...(seg.speaker ? { speaker: seg.speaker } : {}) });
      })
      .catch((err: Error) => this.app.log.warn({ sessionId: this.sessionId, err: err.message }, 'live transcript entry not stored'));
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (this.ending) return;
    this.resetIdle();
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const max = this.app.config.ws.maxFrameBytes;
    if (buf.length > max) return this.fatal(413, 4413, `frame of ${buf.length} bytes exceeds the limit of ${max} bytes`);
    const frame = parseClientFrame(buf, isBinary);
    switch (frame.kind) {
      case 'error':
        return this.error(400, frame.message);
      case 'start_time':
        if (this.firstAudioAt !== null) return this.error(409, 'START_TIME must come before the first AUDIO frame; ignored');
        if (this.startTimeSet) return this.error(409, 'START_TIME was already given for this recording; ignored');
        return this.setStartTime(frame.value);
      case 'audio':
        if (this.paused) return this.error(409, 'the stream is paused; send a RESUME event before more audio');
        return this.onAudio(frame.pcm);
      case 'eof':
        void this.end({ kind: 'eof' });
        return;
      case 'event':
        return this.onEvent(frame.event);
    }
  }

  private onEvent(event: string): void {
    switch (event) {
      case 'KEEP_ALIVE':
        return;
      case 'PAUSE':
      case 'RESUME':
        this.paused = event === 'PAUSE';
        return this.send({ type: 'STATUS', status: 'ready', paused: this.paused });
      case 'CANCEL':
        void this.end({ kind: 'cancel' });
        return;
      case 'ABORT':
        void this.end({ kind: 'abort' });
        return;
      default:
        return this.error(400, `event must be one of ${EVENTS.join(', ')}`);
    }
  }

  private setStartTime(value: string): void {
    this.startTimeSet = true;
    this.app.db
      .update(recordings)
      .set({ startTime: sql`${value}::timestamptz` as unknown as Date })
      .where(eq(recordings.id, this.rec.id))
      .catch((err: Error) => this.app.log.warn({ sessionId: this.sessionId, err: err.message }, 'recording start time not stored'));
  }

  private onAudio(input: Buffer): void {
    const now = Date.now();
    if (this.firstAudioAt === null) {
      this.firstAudioAt = now;
      // Documented default: a client that sends no START_TIME gets the arrival time of its first audio.
      if (!this.startTimeSet) this.setStartTime(new Date(now).toISOString());
    }
    const { maxAheadMs, maxSessionSeconds } = this.app.config.ws;
    let pcm = input;
    const afterMs = bytesToMs(this.acceptedBytes + pcm.length);
    if (afterMs - (now - this.firstAudioAt) > maxAheadMs) {
      return this.fatal(429, 4429, `audio is arriving more than ${maxAheadMs} ms ahead of real time; send it at the pace it is recorded`);
    }
    const limitMs = maxSessionSeconds * 1000 - this.rec.sessionOffsetMs;
    let reachedLimit = false;
    if (afterMs >= limitMs) {
      const allowed = Math.max(0, limitMs * BYTES_PER_MS - this.acceptedBytes);
      pcm = pcm.subarray(0, allowed - (allowed % 2));
      reachedLimit = true;
    }
    if (pcm.length) {
      this.acceptedBytes += pcm.length;
      this.append(pcm);
      this.feedSpeech(pcm);
    }
    if (reachedLimit) {
      this.error(413, `the maximum session length of ${maxSessionSeconds} s is reached; audio capture has ended and the session is being finalised`);
      void this.end({ kind: 'eof' });
    }
  }

  private append(pcm: Buffer): void {
    this.appendTail = this.blob.append(this.rec.blobKey, pcm).then(
      (size) => {
        this.durableBytes = Math.max(this.durableBytes, size);
        this.ack();
      },
      (err: Error) => {
        this.app.log.error({ sessionId: this.sessionId, err: err.message }, 'audio append failed');
        this.fatal(500, 1011, 'audio could not be stored; reconnect and resend the audio after the last ACK');
      },
    );
  }

  private ack(): void {
    const ms = bytesToMs(this.durableBytes);
    if (ms <= this.ackedMs) return;
    this.ackedMs = ms;
    this.send({ type: 'ACK', received_ms: ms, session_ms: this.rec.sessionOffsetMs + ms });
  }

  private feedSpeech(pcm: Buffer): void {
    if (!this.speech || this.liveFailed) return;
    try {
      this.speech.write(pcm);
      this.liveFedBytes += pcm.length;
    } catch (err) {
      this.liveFailed = true;
      this.app.log.warn({ sessionId: this.sessionId, err: (err as Error).message }, 'live transcription failed');
    }
  }

  private async onTick(): Promise<void> {
    if (this.ending) return;
    try {
      if (this.durableBytes !== this.recordedDurable) {
        const d = this.durableBytes;
        await this.app.db.update(recordings).set({ durableBytes: d }).where(eq(recordings.id, this.rec.id));
        this.recordedDurable = d;
      }
      const row = (await this.app.db.select({ status: ambientSessions.status }).from(ambientSessions).where(eq(ambientSessions.id, this.sessionId)).limit(1))[0];
      // Ended over REST (end or abort) while this socket was open: audio capture is over.
      if (row && row.status !== 'ready' && !this.ending) {
        this.send({ type: 'STATUS', status: row.status });
        void this.end({ kind: 'drop', code: 1000, reason: `session is ${row.status}` });
      }
    } catch (err) {
      this.app.log.warn({ sessionId: this.sessionId, err: (err as Error).message }, 'stream bookkeeping failed');
    }
  }

  stop(code: number, reason: string): Promise<void> {
    if (code === 4409) this.error(409, reason);
    return this.end({ kind: 'drop', code, reason });
  }

  private async endSpeech(): Promise<number | null> {
    const s = this.speech;
    this.speech = null;
    if (!s) return null;
    if (this.liveFailed) {
      s.close();
      return null;
    }
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      s.end().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), SPEECH_END_TIMEOUT_MS))),
    ]).catch(() => false);
    clearTimeout(timer);
    if (!finished) s.close();
    return finished && !this.liveFailed ? bytesToMs(this.liveFedBytes) : null;
  }

  private end(how: Ending): Promise<void> {
    if (!this.ending)
      this.ending = this.runEnd(how)
        .catch((err: Error) => {
          this.app.log.error({ sessionId: this.sessionId, err: err.message }, 'ending the stream failed');
          if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1011, 'internal server error');
        })
        // Held until the live recogniser and the recording are closed (those are what the caps protect),
        // and given back even when ending failed.
        .finally(() => this.slot.release());
    return this.ending;
  }

  private async runEnd(how: Ending): Promise<void> {
    const { app, sessionId } = this;
    clearInterval(this.tick);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    await this.appendTail;
    this.durableBytes = Math.max(this.durableBytes, await this.blob.size(this.rec.blobKey).catch(() => 0));
    this.ack();

    let closeCode = how.kind === 'drop' ? how.code : 1000;
    let closeText = how.kind === 'drop' ? how.reason : how.kind === 'eof' ? 'audio complete' : how.kind === 'cancel' ? 'session cancelled' : 'stream ended; the session stays open for a new stream';
    let finalise = false;
    let notify = false;
    if (how.kind === 'eof' || how.kind === 'cancel') {
      const to = how.kind === 'eof' ? 'running' : 'aborted';
      try {
        await transitionSession(app, sessionId, to, { allowSame: true, reason: how.kind === 'eof' ? 'stream EOF' : 'stream CANCEL' });
        this.send({ type: 'STATUS', status: to });
        finalise = to === 'running';
        notify = to === 'aborted';
      } catch (err) {
        this.error(409, (err as Error).message);
        closeCode = 4409;
        closeText = (err as Error).message;
      }
    }
    // Neither needs the live transcript's tail: a cancelled session has no transcript, and after a shutdown
    // the final pass transcribes whatever the live recogniser had not finished (waiting for it could take
    // up to SPEECH_END_TIMEOUT_MS, as long as the whole shutdown may take).
    if (how.kind === 'cancel' || (how.kind === 'drop' && how.code === 1001)) this.liveFailed = true;
    const liveMs = await this.endSpeech();
    await this.liveTail;
    await closeRecording(app, { id: this.rec.id, sessionId, sessionOffsetMs: this.rec.sessionOffsetMs }, this.durableBytes - (this.durableBytes % 2), liveMs);
    const hub = getHub(app);
    if (hub.bySession.get(sessionId) === this) hub.bySession.delete(sessionId);
    hub.all.delete(this);
    if (finalise) await enqueueFinalisation(app, sessionId);
    if (notify) await enqueueSessionWebhook(app, sessionId).catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'webhook not queued'));
    if (how.kind === 'abort') this.send({ type: 'STATUS', status: 'ready' });
    // Before the close frame, so a client that opens its next stream on seeing the close is never refused.
    this.slot.release();
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(closeCode, closeReason(closeText));
  }
}

export function handleAmbientUpgrade(app: AppContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  void upgradeAuthorised(
    app,
    req,
    socket,
    head,
    'ambient_session_id',
    async (principal, sessionId, claimSlot) => {
      const session = await getOwnedSession(app, principal, sessionId);
      if (isTerminal(session.status)) throw conflict(`session is ${session.status}; it accepts no more audio`);
      if (session.status === 'running') throw conflict('session audio has ended and it is being processed; it accepts no more audio');
      // A reconnect may arrive before the old socket is known to be dead; the new one wins.
      await getHub(app).takeOver(sessionId, 'superseded by a newer connection for this session');
      // After the takeover, which frees the old connection's slot; before anything is written for this one.
      await claimSlot();
      if (session.status === 'created') await transitionSession(app, sessionId, 'ready', { allowSame: true, reason: 'first stream opened' });
      const bias = await buildSpeechBias(app, session);
      return { sessionId, rec: await openRecording(app, sessionId), bias };
    },
    (ws, { target, slot }) => {
      const hub = getHub(app);
      const stream = new AmbientStream(app, ws, target.sessionId, target.rec, slot, target.bias);
      hub.bySession.set(target.sessionId, stream);
      hub.all.add(stream);
    },
  );
}
