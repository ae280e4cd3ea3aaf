import { bytesToMs, CLOSE, TRANSCRIBE_EVENTS, type ServerFrame } from '@/lib/contracts/stream-protocol';
import type { SpeechSegment } from '../engines/speech/types';
import { parseClientFrame } from './frames';

/**
 * One /ws/transcribe connection (dictation) as a pure state machine, in the style of ambient-machine.ts:
 * inputs in, effects out; the adapter (transcribe.ts) owns the socket, the timers and the recognisers.
 *
 * Same framing as /ws/ambient; nothing is stored. Results are pushed as recognised; `EVENT AUDIO_END` closes
 * the current utterance and answers with its whole text in a TRANSCRIPT frame with `utterance_end: true`;
 * audio after it starts the next utterance. Each utterance has its own recogniser, numbered from 1.
 */

export interface TranscribeLimits {
  maxFrameBytes: number;
  idleTimeoutMs: number;
  maxAheadMs: number;
}

export type TranscribeInput =
  | { type: 'message'; data: Buffer; isBinary: boolean; now: number }
  | { type: 'idle_timeout' }
  | { type: 'segment'; utterance: number; segment: SpeechSegment }
  /** The utterance's recogniser could not be opened, failed, or refused audio. */
  | { type: 'speech_failed'; utterance: number }
  /** The utterance's recogniser has flushed (or failed to). */
  | { type: 'utterance_ended'; utterance: number }
  | { type: 'stop'; code: number; reason: string }
  | { type: 'socket_closed' };

export type TranscribeEffect =
  | { type: 'send'; frame: ServerFrame }
  | { type: 'reset_idle'; ms: number }
  | { type: 'open_utterance'; utterance: number }
  | { type: 'feed_speech'; utterance: number; pcm: Buffer }
  /** Flush the recogniser (or just close it when `flush` is false), then feed back `utterance_ended`; in order. */
  | { type: 'end_utterance'; utterance: number; flush: boolean }
  | { type: 'stop_timers' }
  | { type: 'close_speech'; utterance: number }
  | { type: 'release_slot' }
  | { type: 'unregister' }
  | { type: 'close'; code: number; reason: string };

interface Utterance {
  offsetMs: number;
  finals: SpeechSegment[];
  failed: boolean;
}

export class TranscribeMachine {
  private receivedBytes = 0;
  private firstAudioAt: number | null = null;
  private closing = false;
  private current = 0;
  /** The current utterance and those still flushing. */
  private readonly utterances = new Map<number, Utterance>();
  /** EOF arrived: the connection closes once this utterance's text is sent. */
  private closeAfter: number | null = null;

  constructor(private readonly limits: TranscribeLimits) {}

  open(): TranscribeEffect[] {
    return [this.openUtterance(), { type: 'reset_idle', ms: this.limits.idleTimeoutMs }, send({ type: 'STATUS', status: 'ready' })];
  }

  step(input: TranscribeInput): TranscribeEffect[] {
    const out: TranscribeEffect[] = [];
    switch (input.type) {
      case 'message':
        if (!this.closing) this.onMessage(input.data, input.isBinary, input.now, out);
        break;
      case 'idle_timeout':
        // A client waiting for an utterance's text is not idle: a recogniser far behind (a busy machine)
        // may take longer than the idle limit to flush it.
        if (this.utterances.size > 1) {
          out.push({ type: 'reset_idle', ms: this.limits.idleTimeoutMs });
          break;
        }
        out.push(error(408, `no frame for ${this.limits.idleTimeoutMs} ms; send KEEP_ALIVE events while not sending audio`));
        this.stop(CLOSE.IDLE, 'idle timeout', out);
        break;
      case 'segment': {
        const u = this.utterances.get(input.utterance);
        if (!u) break;
        const seg = input.segment;
        if (seg.isFinal) u.finals.push(seg);
        if (seg.text.trim()) {
          out.push(send({ type: 'TRANSCRIPT', is_final: seg.isFinal, text: seg.text, start_offset_ms: u.offsetMs + Math.round(seg.startMs), end_offset_ms: u.offsetMs + Math.round(seg.endMs) }));
        }
        break;
      }
      case 'speech_failed': {
        const u = this.utterances.get(input.utterance);
        if (u) u.failed = true;
        break;
      }
      case 'utterance_ended':
        this.onUtteranceEnded(input.utterance, out);
        break;
      case 'stop':
        this.stop(input.code, input.reason, out);
        break;
      case 'socket_closed':
        this.stop(CLOSE.NORMAL, 'client closed', out);
        break;
    }
    return out;
  }

  /** Whether the current utterance's recogniser should get audio. */
  private get live(): boolean {
    return !this.utterances.get(this.current)!.failed;
  }

  private openUtterance(): TranscribeEffect {
    this.current++;
    this.utterances.set(this.current, { offsetMs: bytesToMs(this.receivedBytes), finals: [], failed: false });
    return { type: 'open_utterance', utterance: this.current };
  }

  private onMessage(data: Buffer, isBinary: boolean, now: number, out: TranscribeEffect[]): void {
    out.push({ type: 'reset_idle', ms: this.limits.idleTimeoutMs });
    const max = this.limits.maxFrameBytes;
    if (data.length > max) {
      out.push(error(413, `frame of ${data.length} bytes exceeds the limit of ${max} bytes`));
      return this.stop(CLOSE.TOO_LARGE, 'frame too large', out);
    }
    const frame = parseClientFrame(data, isBinary);
    switch (frame.kind) {
      case 'error':
        return void out.push(error(400, frame.message));
      case 'start_time':
        return;
      case 'audio': {
        this.firstAudioAt ??= now;
        const { maxAheadMs } = this.limits;
        if (bytesToMs(this.receivedBytes + frame.pcm.length) - (now - this.firstAudioAt) > maxAheadMs) {
          out.push(error(429, `audio is arriving more than ${maxAheadMs} ms ahead of real time; send it at the pace it is recorded`));
          return this.stop(CLOSE.TOO_FAST, 'audio faster than real time', out);
        }
        this.receivedBytes += frame.pcm.length;
        if (this.live) out.push({ type: 'feed_speech', utterance: this.current, pcm: frame.pcm });
        return;
      }
      case 'eof':
        this.closeAfter = this.current;
        return this.finishUtterance(out);
      case 'event':
        if (frame.event === 'AUDIO_END') return this.finishUtterance(out);
        if (frame.event === 'KEEP_ALIVE') return;
        if (frame.event === 'CANCEL' || frame.event === 'ABORT') return this.stop(CLOSE.NORMAL, 'cancelled', out);
        return void out.push(error(400, `event must be one of ${TRANSCRIBE_EVENTS.join(', ')}`));
    }
  }

  /** Ends the current utterance and opens the next; its text is sent once the recogniser has flushed it. */
  private finishUtterance(out: TranscribeEffect[]): void {
    const ending = this.current;
    const flush = this.live;
    out.push(this.openUtterance(), { type: 'end_utterance', utterance: ending, flush });
  }

  private onUtteranceEnded(id: number, out: TranscribeEffect[]): void {
    const u = this.utterances.get(id);
    if (!u) return;
    this.utterances.delete(id);
    if (u.failed) out.push(error(500, 'speech recognition failed for this utterance'));
    else {
      const text = u.finals.map((s) => s.text.trim()).filter(Boolean).join(' ');
      const start = u.finals.length ? u.offsetMs + Math.round(u.finals[0]!.startMs) : u.offsetMs;
      const end = u.finals.length ? u.offsetMs + Math.round(u.finals.at(-1)!.endMs) : bytesToMs(this.receivedBytes);
      out.push(send({ type: 'TRANSCRIPT', is_final: true, utterance_end: true, text, start_offset_ms: start, end_offset_ms: end }));
    }
    if (this.closeAfter === id) this.stop(CLOSE.NORMAL, 'audio complete', out);
  }

  private stop(code: number, reason: string, out: TranscribeEffect[]): void {
    if (this.closing) return;
    this.closing = true;
    out.push(
      { type: 'stop_timers' },
      { type: 'close_speech', utterance: this.current },
      { type: 'release_slot' },
      { type: 'unregister' },
      { type: 'close', code, reason },
    );
  }
}

const send = (frame: ServerFrame): TranscribeEffect => ({ type: 'send', frame });
const error = (code: number, message: string): TranscribeEffect => send({ type: 'ERROR', code, message });
