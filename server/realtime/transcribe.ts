import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket } from 'ws';
import type { AppContext } from '../context';
import { findTranscriptionSession } from '../domain/streams/find-transcription-session';
import type { SpeechStream } from '../engines/speech/types';
import { getSpeechEngine } from '../engines/index';
import { toBuffer } from './frames';
import { getHub } from './hub';
import type { StreamSlot } from './stream-slots';
import { TranscribeMachine, type TranscribeEffect, type TranscribeInput } from './transcribe-machine';
import { closeReason, upgradeAuthorised } from './upgrade';

/**
 * The socket adapter of one /ws/transcribe connection (dictation): it feeds frames, recogniser output and
 * the idle timer to the TranscribeMachine and performs the effects it returns.
 */
export class TranscribeStream {
  private readonly machine: TranscribeMachine;
  private readonly speech = new Map<number, SpeechStream>();
  private endTail: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | null = null;
  private released: Promise<void> = Promise.resolve();

  constructor(
    private readonly app: AppContext,
    private readonly ws: WebSocket,
    readonly transcriptionSessionId: string,
    private readonly slot: StreamSlot,
  ) {
    const { maxFrameBytes, idleTimeoutMs, maxAheadMs } = app.config.ws;
    this.machine = new TranscribeMachine({ maxFrameBytes, idleTimeoutMs, maxAheadMs });
    ws.on('message', (data, isBinary) => this.feed({ type: 'message', data: toBuffer(data), isBinary, now: Date.now() }));
    ws.on('close', () => this.feed({ type: 'socket_closed' }));
    ws.on('error', (err) => app.log.warn({ transcriptionSessionId, err: err.message }, 'transcribe socket error'));
    this.run(this.machine.open());
  }

  stop(code: number, reason: string): Promise<void> {
    this.feed({ type: 'stop', code, reason });
    return Promise.resolve();
  }

  private feed(input: TranscribeInput): void {
    this.run(this.machine.step(input));
  }

  private run(effects: TranscribeEffect[]): void {
    for (const e of effects) this.perform(e);
  }

  private perform(e: TranscribeEffect): void {
    switch (e.type) {
      case 'send':
        if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(e.frame));
        return;
      case 'reset_idle':
        if (this.idleTimer) clearTimeout(this.idleTimer);
        this.idleTimer = setTimeout(() => this.feed({ type: 'idle_timeout' }), e.ms);
        this.idleTimer.unref();
        return;
      case 'open_utterance':
        return this.openUtterance(e.utterance);
      case 'feed_speech':
        try {
          this.speech.get(e.utterance)?.write(e.pcm);
        } catch {
          this.feed({ type: 'speech_failed', utterance: e.utterance });
        }
        return;
      case 'end_utterance': {
        const stream = this.speech.get(e.utterance);
        this.speech.delete(e.utterance);
        // Chained, so utterances are answered in the order they ended.
        this.endTail = this.endTail.then(async () => {
          if (stream && e.flush) await stream.end().catch(() => this.feed({ type: 'speech_failed', utterance: e.utterance }));
          else stream?.close();
          this.feed({ type: 'utterance_ended', utterance: e.utterance });
        });
        return;
      }
      case 'stop_timers':
        if (this.idleTimer) clearTimeout(this.idleTimer);
        return;
      case 'close_speech':
        this.speech.get(e.utterance)?.close();
        this.speech.delete(e.utterance);
        return;
      case 'release_slot':
        this.released = this.slot.release();
        return;
      case 'unregister':
        getHub(this.app).all.delete(this);
        return;
      case 'close':
        // After the slot is given back to the shared store: a client that sees the close may open its next stream at once.
        void this.released.then(() => {
          if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(e.code, closeReason(e.reason));
        });
        return;
    }
  }

  private openUtterance(utterance: number): void {
    try {
      const stream = getSpeechEngine(this.app).openStream({
        onSegment: (segment) => this.feed({ type: 'segment', utterance, segment }),
        onError: (err) => {
          this.app.log.warn({ transcriptionSessionId: this.transcriptionSessionId, err: err.message }, 'dictation recognition failed');
          this.feed({ type: 'speech_failed', utterance });
        },
      });
      this.speech.set(utterance, stream);
    } catch (err) {
      this.app.log.warn({ err: (err as Error).message }, 'speech engine unavailable');
      this.feed({ type: 'speech_failed', utterance });
    }
  }
}

export function handleTranscribeUpgrade(app: AppContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  void upgradeAuthorised(
    app,
    req,
    socket,
    head,
    'transcription_session_id',
    (principal, id) => findTranscriptionSession(app, principal, id),
    (ws, { target, slot }) => {
      getHub(app).all.add(new TranscribeStream(app, ws, target, slot));
    },
  );
}
