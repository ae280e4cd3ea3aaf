import { AMBIENT_EVENTS, BYTES_PER_MS, bytesToMs, CLOSE, type PartStartReason, type ServerFrame } from '@/lib/contracts/stream-protocol';
import type { SpeechSegment } from '../engines/speech/types';
import type { AmbientEffect, AmbientInput, AmbientLimits, AmbientRecording, Ending } from './ambient-machine-types';
import { parseClientFrame } from './frames';

export type { AmbientEffect, AmbientInput, AmbientLimits, AmbientRecording, Ending } from './ambient-machine-types';

/**
 * One /ws/ambient connection (one recording of one session) as a pure state machine: each input (a frame, a
 * storage result, a timer) gives the effects to perform, in order. No sockets, timers, clock or database:
 * the adapter (ambient.ts) performs the effects and feeds their results back, so every rule here is
 * unit-tested directly (ambient-machine.test.ts).
 */
/**
 * When the live recogniser falls behind, what it gives up first are the partial captions: a partial further
 * than this behind the audio fed is no longer a caption of what is being said. Final segments are always
 * stored, however late, and finalisation never waits on them (the final pass decodes what the live one left).
 */
export const PARTIALS_MAX_LAG_MS = 5_000;

const IDLE_MESSAGE = (ms: number) => `no frame for ${ms} ms; send KEEP_ALIVE events while not sending audio`;

export class AmbientMachine {
  private acceptedBytes = 0;
  private durableBytes = 0;
  private recordedDurable = 0;
  private ackedMs = -1;
  private firstAudioAt: number | null = null;
  private startTimeSet = false;
  private paused = false;
  private liveFailed = false;
  private liveFedBytes = 0;
  private nextLivePosition: number;
  private ending: Ending | null = null;
  private closeCode = CLOSE.NORMAL as number;
  private closeText = '';
  private finalise = false;
  private notify = false;

  constructor(
    private readonly sessionId: string,
    private readonly rec: AmbientRecording,
    private readonly limits: AmbientLimits,
  ) {
    this.nextLivePosition = rec.nextLivePosition;
  }

  /** True once the stream has begun ending: no more client frames are read. */
  get isEnding(): boolean {
    return this.ending !== null;
  }

  /** What a newly opened connection does first. */
  open(): AmbientEffect[] {
    return [
      { type: 'reset_idle', ms: this.limits.idleTimeoutMs },
      { type: 'send', frame: { type: 'STATUS', status: 'ready', recording_id: this.rec.id, sequence_number: this.rec.sequenceNumber } },
    ];
  }

  step(input: AmbientInput): AmbientEffect[] {
    const out: AmbientEffect[] = [];
    switch (input.type) {
      case 'message':
        if (!this.ending) this.onMessage(input.data, input.isBinary, input.now, out);
        break;
      case 'idle_timeout':
        // After EOF the client waits for the server, which owes it STATUS and the close: not idle.
        if (!this.ending) this.fatal(408, CLOSE.IDLE, IDLE_MESSAGE(this.limits.idleTimeoutMs), out);
        break;
      case 'appended':
        this.durableBytes = Math.max(this.durableBytes, input.size);
        this.ack(out);
        break;
      case 'append_failed':
        this.fatal(500, CLOSE.INTERNAL_ERROR, 'audio could not be stored; reconnect and resend the audio after the last ACK', out);
        break;
      case 'segment':
        this.onSegment(input.segment, input.id, out);
        break;
      case 'segment_stored':
        out.push(send(input.frame));
        break;
      case 'speech_failed':
        this.liveFailed = true;
        break;
      case 'tick':
        if (this.ending) break;
        // Audio received but not stored yet (a busy machine, a slow disk): the last ACK again, so the client
        // hears that this connection is alive and does not give it up for a dead one, which would only make
        // the next connection wait for this one's audio to be stored.
        if (this.ackedMs >= 0 && this.acceptedBytes > this.durableBytes) out.push(this.ackFrame());
        out.push({ type: 'record_and_check_status', durableBytes: this.durableBytes !== this.recordedDurable ? this.durableBytes : null });
        break;
      case 'durable_recorded':
        this.recordedDurable = input.bytes;
        break;
      case 'status_seen':
        // Ended over REST (end or abort) while this socket was open: audio capture is over.
        if (input.status !== 'ready' && !this.ending) {
          out.push(send({ type: 'STATUS', status: input.status }));
          this.end({ kind: 'drop', code: CLOSE.NORMAL, reason: `session is ${input.status}` }, out);
        }
        break;
      case 'stop':
        if (input.code === CLOSE.CONFLICT) out.push(send({ type: 'ERROR', code: 409, message: input.reason }));
        this.end({ kind: 'drop', code: input.code, reason: input.reason, handover: input.code === CLOSE.CONFLICT }, out);
        break;
      case 'socket_closed':
        this.end({ kind: 'drop', code: CLOSE.NORMAL, reason: 'client closed', handover: true }, out);
        break;
      case 'audio_settled':
        this.onAudioSettled(input.size, out);
        break;
      case 'transitioned':
        this.onTransitioned(input.error, out);
        break;
      case 'speech_ended': {
        const liveMs = input.finished && !this.liveFailed ? bytesToMs(this.liveFedBytes) : null;
        out.push({ type: 'close_recording', durableBytes: this.durableBytes - (this.durableBytes % 2), liveTranscriptMs: liveMs });
        break;
      }
      case 'recording_closed':
        out.push({ type: 'unregister' });
        if (this.finalise) out.push({ type: 'enqueue_finalisation' });
        if (this.notify) out.push({ type: 'notify_aborted' });
        if (this.ending?.kind === 'abort') out.push(send({ type: 'STATUS', status: 'ready' }));
        // Before the close frame, so a client that opens its next stream on seeing the close is never refused.
        out.push({ type: 'release_slot' }, { type: 'close', code: this.closeCode, reason: this.closeText });
        break;
    }
    return out;
  }

  private onMessage(data: Buffer, isBinary: boolean, now: number, out: AmbientEffect[]): void {
    out.push({ type: 'reset_idle', ms: this.limits.idleTimeoutMs });
    const max = this.limits.maxFrameBytes;
    if (data.length > max) return this.fatal(413, CLOSE.TOO_LARGE, `frame of ${data.length} bytes exceeds the limit of ${max} bytes`, out);
    const frame = parseClientFrame(data, isBinary);
    switch (frame.kind) {
      case 'error':
        return void out.push(error(400, frame.message));
      case 'start_time':
        if (this.firstAudioAt !== null) return void out.push(error(409, 'START_TIME must come before the first AUDIO frame; ignored'));
        if (this.startTimeSet) return void out.push(error(409, 'START_TIME was already given for this recording; ignored'));
        if (frame.problem) out.push(error(400, frame.problem));
        return this.setStartTime(frame.value, out, frame.reason);
      case 'audio':
        if (this.paused) return void out.push(error(409, 'the stream is paused; send a RESUME event before more audio'));
        return this.onAudio(frame.pcm, now, out);
      case 'eof':
        return this.end({ kind: 'eof' }, out);
      case 'event':
        return this.onEvent(frame.event, out);
    }
  }

  private onEvent(event: string, out: AmbientEffect[]): void {
    switch (event) {
      case 'KEEP_ALIVE':
        return;
      case 'PAUSE':
      case 'RESUME':
        this.paused = event === 'PAUSE';
        return void out.push(send({ type: 'STATUS', status: 'ready', paused: this.paused }));
      case 'CANCEL':
        return this.end({ kind: 'cancel' }, out);
      case 'ABORT':
        return this.end({ kind: 'abort' }, out);
      default:
        return void out.push(error(400, `event must be one of ${AMBIENT_EVENTS.join(', ')}`));
    }
  }

  private setStartTime(value: string, out: AmbientEffect[], reason: PartStartReason | null = null): void {
    this.startTimeSet = true;
    out.push({ type: 'store_start_time', value, reason });
  }

  private onAudio(input: Buffer, now: number, out: AmbientEffect[]): void {
    if (this.firstAudioAt === null) {
      this.firstAudioAt = now;
      // Documented default: a client that sends no START_TIME gets the arrival time of its first audio.
      if (!this.startTimeSet) this.setStartTime(new Date(now).toISOString(), out);
    }
    const { maxAheadMs, maxSessionSeconds } = this.limits;
    let pcm = input;
    const afterMs = bytesToMs(this.acceptedBytes + pcm.length);
    // Audio recorded in real time can be ahead of this connection's clock only when it is a backlog (resent
    // after a drop, a restart, a reload): that goes through at once, as long as the session's audio does not
    // outrun the time since the session was created. Only audio ahead of both clocks is refused.
    const aheadOfConnection = afterMs - (now - this.firstAudioAt);
    const created = this.rec.sessionCreatedAt;
    const aheadOfSession = created === undefined ? aheadOfConnection : this.rec.sessionOffsetMs + afterMs - (now - created);
    if (Math.min(aheadOfConnection, aheadOfSession) > maxAheadMs) {
      return this.fatal(429, CLOSE.TOO_FAST, `audio is arriving more than ${maxAheadMs} ms ahead of real time; send it at the pace it is recorded`, out);
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
      out.push({ type: 'append', pcm });
      if (!this.liveFailed) {
        out.push({ type: 'feed_speech', pcm });
        this.liveFedBytes += pcm.length;
      }
    }
    if (reachedLimit) {
      out.push(error(413, `the maximum session length of ${maxSessionSeconds} s is reached; audio capture has ended and the session is being finalised`));
      this.end({ kind: 'eof' }, out);
    }
  }

  private onSegment(seg: SpeechSegment, id: string, out: AmbientEffect[]): void {
    const offset = this.rec.sessionOffsetMs;
    const start = offset + Math.round(seg.startMs);
    const end = offset + Math.round(seg.endMs);
    if (!seg.isFinal) {
      if (bytesToMs(this.liveFedBytes) - seg.endMs > PARTIALS_MAX_LAG_MS) return;
      return void out.push(send({ type: 'TRANSCRIPT', is_final: false, text: seg.text, start_offset_ms: start, end_offset_ms: end }));
    }
    if (!seg.text.trim()) return;
    out.push({
      type: 'store_segment',
      entry: {
        id,
        sessionId: this.sessionId,
        recordingId: this.rec.id,
        position: this.nextLivePosition++,
        text: seg.text,
        speaker: seg.speaker ?? 'UNKNOWN',
        langId: seg.lang && seg.lang !== 'en' ? seg.lang : 'en-US',
        startOffsetMs: start,
        endOffsetMs: end,
        confidence: seg.confidence ?? null,
        words: seg.words.some((w) => w.confidence !== undefined)
          ? seg.words.map((w) => ({ text: w.word, startMs: offset + w.startMs, endMs: offset + w.endMs, confidence: w.confidence ?? 1 }))
          : null,
      },
      frame: { type: 'TRANSCRIPT', is_final: true, transcript_id: id, text: seg.text, start_offset_ms: start, end_offset_ms: end, ...(seg.speaker ? { speaker: seg.speaker } : {}) },
    });
  }

  private ack(out: AmbientEffect[]): void {
    const ms = bytesToMs(this.durableBytes);
    if (ms <= this.ackedMs) return;
    this.ackedMs = ms;
    out.push(this.ackFrame());
  }

  private ackFrame(): AmbientEffect {
    return send({ type: 'ACK', received_ms: this.ackedMs, session_ms: this.rec.sessionOffsetMs + this.ackedMs });
  }

  /** An ERROR frame, then the connection ends; the session stays open for a new connection. */
  private fatal(code: number, closeCode: number, message: string, out: AmbientEffect[]): void {
    out.push(error(code, message));
    this.end({ kind: 'drop', code: closeCode, reason: message }, out);
  }

  private end(how: Ending, out: AmbientEffect[]): void {
    if (this.ending) return;
    this.ending = how;
    this.closeCode = how.kind === 'drop' ? how.code : CLOSE.NORMAL;
    this.closeText =
      how.kind === 'drop' ? how.reason : how.kind === 'eof' ? 'audio complete' : how.kind === 'cancel' ? 'session cancelled' : 'stream ended; the session stays open for a new stream';
    out.push({ type: 'stop_timers' }, { type: 'settle_audio' });
  }

  private onAudioSettled(size: number, out: AmbientEffect[]): void {
    this.durableBytes = Math.max(this.durableBytes, size);
    this.ack(out);
    const how = this.ending!;
    if (how.kind === 'eof') out.push({ type: 'transition', to: 'running', reason: 'stream EOF' });
    else if (how.kind === 'cancel') out.push({ type: 'transition', to: 'aborted', reason: 'stream CANCEL' });
    else this.endSpeech(out);
  }

  private onTransitioned(err: string | undefined, out: AmbientEffect[]): void {
    const to = this.ending!.kind === 'eof' ? 'running' : 'aborted';
    if (err === undefined) {
      out.push(send({ type: 'STATUS', status: to }));
      this.finalise = to === 'running';
      this.notify = to === 'aborted';
    } else {
      out.push(error(409, err));
      this.closeCode = CLOSE.CONFLICT;
      this.closeText = err;
    }
    this.endSpeech(out);
  }

  private endSpeech(out: AmbientEffect[]): void {
    const how = this.ending!;
    // Neither needs the live transcript's tail: a cancelled session has no transcript, and after a shutdown
    // the final pass transcribes whatever the live recogniser had not finished (waiting for it could take
    // as long as the whole shutdown may take). Nor does a dropped or taken-over stream: the reconnect waits
    // for this stream's end, and a recogniser lagging under load would hold it (the final pass decodes this
    // recording itself; only its decode-once reuse is lost).
    if (how.kind === 'cancel' || (how.kind === 'drop' && (how.code === CLOSE.GOING_AWAY || how.handover))) this.liveFailed = true;
    out.push({ type: 'end_speech', discard: this.liveFailed });
  }
}

const send = (frame: ServerFrame): AmbientEffect => ({ type: 'send', frame });
const error = (code: number, message: string): AmbientEffect => send({ type: 'ERROR', code, message });
