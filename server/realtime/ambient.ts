import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import { conflict, isApiError } from '@/lib/errors';
import { isTerminal } from '@/lib/contracts/session-status';
import { CLOSE } from '@/lib/contracts/stream-protocol';
import type { AppContext } from '../context';
import { getBlobStore, type BlobStore } from '../blob/index';
import type { ServicePrincipal } from '../auth/authenticate-service';
import { getOwnedSession } from '../domain/sessions/get-owned-session';
import { getOwnedSessionStatus } from '../domain/sessions/get-owned-session-status';
import { transitionSession } from '../domain/sessions/transition-session';
import { buildSpeechBias } from '../domain/sessions/build-speech-bias';
import { storeLiveSegment } from '../recordings/store-live-segment';
import { setRecordingStartTime } from '../recordings/set-recording-start-time';
import { recordDurableBytes } from '../recordings/record-durable-bytes';
import { hasNewerRecording } from '../recordings/has-newer-recording';
import { getStatusBus } from '../status/status-bus';
import type { DecodedPrefix, SpeechBias, SpeechStream } from '../engines/speech/types';
import { biasDigest, type LiveResult } from '../recordings/live-result';
import { engineFingerprint } from '../recordings/engine-fingerprint';
import { storeLiveResult } from '../recordings/store-live-result';
import { getSpeechEngine } from '../engines/index';
import { openRecording, type OpenedRecording } from '../recordings/open-recording';
import { closeRecording } from '../recordings/close-recording';
import { enqueueFinalisation } from '../jobs/finalise-queue';
import { enqueueSessionWebhook } from '../webhooks/enqueue-session-webhook';
import { AmbientMachine, type AmbientEffect, type AmbientInput } from './ambient-machine';
import { AppendTiming } from './append-timing';
import { SpeechFeed } from './speech-feed';
import { getHub, type ActiveStream } from './hub';
import type { StreamSlot } from './stream-slots';
import { closeReason, upgradeAuthorised } from './upgrade';
import { toBuffer } from './frames';
import { streamSpeakers, type LiveSpeakers } from './live-speakers';

const SUPERSEDED = 'superseded by a newer connection for this session';
/** How often the stream records its durable length and notices a status change made elsewhere (REST end or abort). */
const TICK_MS = 2_000;

/**
 * The socket adapter of one /ws/ambient connection: it feeds socket frames, storage results and timers to
 * the AmbientMachine and performs the effects the machine returns. The rules live in the machine.
 */
export class AmbientStream implements ActiveStream {
  private readonly machine: AmbientMachine;
  private readonly blob: BlobStore;
  private appendTail: Promise<unknown> = Promise.resolve();
  private liveTail: Promise<unknown> = Promise.resolve();
  private readonly speakers: LiveSpeakers;
  private speech: SpeechStream | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly tick: NodeJS.Timeout;
  private ending: Promise<void> | null = null;
  /** What the live pass decoded for good, kept for the final pass (server/recordings/live-result.ts). */
  private liveDecoded: DecodedPrefix | null = null;
  private liveFailed = false;
  private readonly liveBias: string;
  private readonly unsubscribeStatus: () => void;
  private readonly appendTiming = new AppendTiming();
  private readonly speechFeed = new SpeechFeed((pcm) => {
    try {
      this.speech?.write(pcm);
    } catch (err) {
      this.liveFailed = true;
      this.app.log.warn({ sessionId: this.sessionId, err: (err as Error).message }, 'live transcription failed');
      void this.feed({ type: 'speech_failed' });
    }
  });

  constructor(
    private readonly app: AppContext,
    private readonly ws: WebSocket,
    readonly sessionId: string,
    private readonly rec: OpenedRecording,
    private readonly slot: StreamSlot,
    private readonly principal: ServicePrincipal,
    bias?: SpeechBias,
    sessionCreatedAt?: Date,
  ) {
    const { maxFrameBytes, idleTimeoutMs, maxAheadMs, maxSessionSeconds } = app.config.ws;
    this.machine = new AmbientMachine(sessionId, { ...rec, sessionCreatedAt: sessionCreatedAt?.getTime() }, { maxFrameBytes, idleTimeoutMs, maxAheadMs, maxSessionSeconds });
    this.blob = getBlobStore(app);
    this.liveBias = biasDigest(bias);
    this.speakers = streamSpeakers(app, sessionId, rec, (frame) => this.ws.readyState === WebSocket.OPEN && this.ws.send(JSON.stringify(frame)));
    this.openSpeech(bias);
    ws.on('message', (data, isBinary) => void this.feed({ type: 'message', data: toBuffer(data), isBinary, now: Date.now() }));
    ws.on('close', () => void this.feed({ type: 'socket_closed' }));
    ws.on('error', (err) => app.log.warn({ sessionId, err: err.message }, 'ambient socket error'));
    this.tick = setInterval(() => void this.feed({ type: 'tick' }), TICK_MS);
    this.tick.unref();
    // A status change (an end or abort over REST, finalisation; another process's by NOTIFY on PostgreSQL)
    // ends the stream at once rather than at the next tick: nothing more is appended or ACKed (issue 26).
    this.unsubscribeStatus = getStatusBus(app).subscribe((change) => {
      if (change.sessionId === sessionId) void this.feed({ type: 'status_seen', status: change.status });
    });
    void this.run(this.machine.open()).catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'stream step failed'));
    // A change committed between the recording's opening and this subscription is caught by a first look now.
    void this.feed({ type: 'tick' });
  }

  private openSpeech(bias?: SpeechBias): void {
    let failed = false;
    try {
      this.speech = getSpeechEngine(this.app).openStream({
        onSegment: (segment) => {
          void this.feed({ type: 'segment', segment, id: crypto.randomUUID() });
        },
        bias,
        onError: (err) => {
          if (failed) return;
          failed = true;
          this.liveFailed = true;
          this.app.log.warn({ sessionId: this.sessionId, err: err.message }, 'live transcription failed; the final pass will transcribe this recording');
          void this.feed({ type: 'speech_failed' });
        },
      });
    } catch (err) {
      this.app.log.warn({ sessionId: this.sessionId, err: (err as Error).message }, 'speech engine unavailable; streaming without a live transcript');
      void this.feed({ type: 'speech_failed' });
    }
  }

  stop(code: number, reason: string): Promise<void> {
    void this.feed({ type: 'stop', code, reason });
    return this.ending ?? Promise.resolve();
  }

  /**
   * Steps the machine. The input that begins the ending carries the whole ending (each step's result is fed
   * back in turn), so its promise is the stream's end: the slot is given back even when ending failed.
   */
  private feed(input: AmbientInput): Promise<void> {
    const wasEnding = this.machine.isEnding;
    const done = this.run(this.machine.step(input));
    if (wasEnding || !this.machine.isEnding) return done.catch((err: Error) => this.app.log.warn({ sessionId: this.sessionId, err: err.message }, 'stream step failed'));
    this.ending = done
      .catch((err: Error) => {
        this.app.log.error({ sessionId: this.sessionId, err: err.message }, 'ending the stream failed');
        if (this.ws.readyState === WebSocket.OPEN) this.ws.close(CLOSE.INTERNAL_ERROR, 'internal server error');
      })
      // Held until the live recogniser and the recording are closed (those are what the caps protect).
      .finally(() => this.slot.release());
    return this.ending;
  }

  private async run(effects: AmbientEffect[]): Promise<void> {
    for (const effect of effects) {
      const next = this.perform(effect);
      if (next) {
        const input = await next;
        if (input) await this.run(this.machine.step(input));
      }
    }
  }

  /** Performs one effect; the steps of the ending return the input that reports their result. */
  private perform(e: AmbientEffect): Promise<AmbientInput | void> | void {
    const { app, sessionId } = this;
    const warn = (what: string) => (err: Error) => app.log.warn({ sessionId, err: err.message }, what);
    switch (e.type) {
      case 'send':
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(e.frame));
        return;
      case 'reset_idle':
        if (this.idleTimer) clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => void this.feed({ type: 'idle_timeout' }), e.ms);
        this.idleTimer.unref();
        return;
      case 'store_start_time':
        setRecordingStartTime(app, this.rec.id, e.value, e.reason).catch(warn('recording start time not stored'));
        return;
      case 'append': {
        const stored = this.appendTiming.begin(e.pcm.length);
        this.appendTail = this.blob.append(this.rec.blobKey, e.pcm).then(
          // Not awaited: a failure begins the ending, which itself waits for this append to settle.
          (size) => {
            stored();
            void this.feed({ type: 'appended', size });
          },
          (err: Error) => {
            app.log.error({ sessionId, err: err.message }, 'audio append failed');
            void this.feed({ type: 'append_failed' });
          },
        );
        return;
      }
      case 'feed_speech':
        this.speechFeed.push(e.pcm);
        return;
      case 'store_segment':
        this.liveTail = this.liveTail
          .then(async () => {
            await storeLiveSegment(app, e.entry);
            this.speakers.add({ id: e.entry.id, text: e.entry.text, startMs: e.entry.startOffsetMs, endMs: e.entry.endOffsetMs });
            void this.feed({ type: 'segment_stored', frame: e.frame });
          })
          .catch(warn('live transcript entry not stored'));
        return;
      case 'record_and_check_status':
        void this.recordAndCheckStatus(e.durableBytes).catch(warn('stream durable length or status check failed'));
        return;
      case 'stop_timers':
        clearInterval(this.tick);
        if (this.idleTimer) clearTimeout(this.idleTimer);
        return;
      case 'settle_audio':
        return this.appendTail.then(async () => ({ type: 'audio_settled', size: await this.blob.size(this.rec.blobKey).catch(() => 0) }));
      case 'transition':
        return transitionSession(app, sessionId, e.to, { allowSame: true, reason: e.reason }).then(
          () => ({ type: 'transitioned' }),
          (err: Error) => ({ type: 'transitioned', error: err.message }),
        );
      case 'end_speech':
        return this.endSpeech(e.discard).then(async (finished) => {
          await this.liveTail;
          await this.speakers.close();
          return { type: 'speech_ended', finished };
        });
      case 'close_recording':
        return this.keepLiveResult().then(() => closeRecording(app, { id: this.rec.id, sessionId, sessionOffsetMs: this.rec.sessionOffsetMs }, e.durableBytes, e.liveTranscriptMs)).then(() => ({
          type: 'recording_closed',
        }));
      case 'unregister': {
        this.unsubscribeStatus();
        const hub = getHub(app);
        if (hub.bySession.get(sessionId) === this) hub.bySession.delete(sessionId);
        hub.all.delete(this);
        return;
      }
      case 'enqueue_finalisation':
        return enqueueFinalisation(app, sessionId).then(() => undefined);
      case 'notify_aborted':
        return enqueueSessionWebhook(app, sessionId).then(() => undefined, warn('webhook not queued'));
      case 'release_slot':
        // Awaited: the slot is in a shared store, and a client that sees the close may open its next stream at once.
        return this.slot.release();
      case 'close': {
        app.log.info({ sessionId, sequenceNumber: this.rec.sequenceNumber, code: e.code, ...this.appendTiming.summary() }, 'ambient stream ended');
        if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(e.code, closeReason(e.reason));
        return;
      }
    }
  }

  private async recordAndCheckStatus(durableBytes: number | null): Promise<void> {
    if (durableBytes !== null) {
      await recordDurableBytes(this.app, this.rec.id, durableBytes);
      void this.feed({ type: 'durable_recorded', bytes: durableBytes });
    }
    // Another web process's hub cannot stop this stream when it opens a newer one for the session (PGlite
    // has one process, whose hub does): it is noticed here, within one tick.
    if (this.app.database.kind === 'postgres' && (await hasNewerRecording(this.app, this.sessionId, this.rec.sequenceNumber))) {
      void this.feed({ type: 'stop', code: CLOSE.CONFLICT, reason: SUPERSEDED });
      return;
    }
    let status: string;
    try {
      status = await getOwnedSessionStatus(this.app, this.principal, this.sessionId);
    } catch (err) {
      if (isApiError(err) && err.status === 404) return;
      throw err;
    }
    void this.feed({ type: 'status_seen', status });
  }

  /**
   * What the live pass decoded is kept for the final pass, which then decodes only the rest: all of it when
   * the pass finished, the utterances it completed when it was cut off behind the audio or the connection
   * dropped. Not after a failure (the engine's state is then unknown).
   */
  private async keepLiveResult(): Promise<void> {
    const decoded = this.liveDecoded;
    if (!decoded || this.liveFailed || (decoded.utterances === 0 && !decoded.complete)) return;
    const engine = await engineFingerprint(getSpeechEngine(this.app));
    if (!engine) return;
    const result: LiveResult = { v: 2, engine, bias: this.liveBias, decoded };
    await storeLiveResult(this.app, this.rec.blobKey, result);
  }

  /** True when the recogniser flushed everything it was fed. */
  private async endSpeech(discard: boolean): Promise<boolean> {
    if (discard) this.speechFeed.clear();
    else await this.speechFeed.drained();
    const s = this.speech;
    this.speech = null;
    if (!s) return false;
    if (discard) {
      s.close();
      this.liveDecoded = s.decoded?.() ?? null;
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      s.end().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.app.config.ws.liveEndWaitMs))),
    ]).catch(() => false);
    clearTimeout(timer);
    if (!finished) s.close();
    this.liveDecoded = s.decoded?.() ?? null;
    return finished;
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
      // Held until this stream is registered (or given up): parallel handshakes take over one after another.
      const unlock = await getHub(app).lockSession(sessionId);
      try {
        // A reconnect may arrive before the old socket is known to be dead; the new one wins.
        await getHub(app).stopSession(sessionId, SUPERSEDED);
        // After the takeover, which frees the old connection's slot; before anything is written for this one.
        await claimSlot();
        if (session.status === 'created') await transitionSession(app, sessionId, 'ready', { allowSame: true, reason: 'first stream opened' });
        const bias = await buildSpeechBias(app, session);
        return { sessionId, rec: await openRecording(app, principal, sessionId), bias, unlock, createdAt: session.createdAt };
      } catch (err) {
        unlock();
        throw err;
      }
    },
    (ws, { principal, target, slot }) => {
      const hub = getHub(app);
      try {
        const stream = new AmbientStream(app, ws, target.sessionId, target.rec, slot, principal, target.bias, target.createdAt);
        hub.bySession.set(target.sessionId, stream);
        hub.all.add(stream);
      } finally {
        target.unlock();
      }
    },
    // The handshake failed after the recording was opened: it is closed empty, and the next opening may go.
    (target) => {
      target.unlock();
      closeRecording(app, { id: target.rec.id, sessionId: target.sessionId, sessionOffsetMs: target.rec.sessionOffsetMs }, 0, null).catch((err: Error) =>
        app.log.warn({ sessionId: target.sessionId, err: err.message }, 'unused recording not closed'),
      );
    },
  );
}
