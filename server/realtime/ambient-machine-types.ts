import type { PartStartReason, ServerFrame } from '@/lib/contracts/stream-protocol';
import type { SpeechSegment } from '../engines/speech/types';
import type { LiveSegmentEntry } from '../recordings/store-live-segment';

/** The inputs, effects and settings of AmbientMachine (ambient-machine.ts). */

export interface AmbientLimits {
  maxFrameBytes: number;
  idleTimeoutMs: number;
  maxAheadMs: number;
  maxSessionSeconds: number;
}

export interface AmbientRecording {
  id: string;
  sequenceNumber: number;
  /** Where this recording starts on the session's audio timeline. */
  sessionOffsetMs: number;
  /** The next free position for live transcript entries of the session. */
  nextLivePosition: number;
  /** When the session was created (ms since epoch, the server's clock): none of its audio was recorded before. */
  sessionCreatedAt?: number;
}

/** `handover`: the client is expected to reconnect (its socket closed, or a new connection took over). */
export type Ending = { kind: 'eof' } | { kind: 'cancel' } | { kind: 'abort' } | { kind: 'drop'; code: number; reason: string; handover?: boolean };

export type AmbientInput =
  | { type: 'message'; data: Buffer; isBinary: boolean; now: number }
  | { type: 'idle_timeout' }
  /** The blob store has this many bytes of the recording. */
  | { type: 'appended'; size: number }
  | { type: 'append_failed' }
  /** `id` is the new entry's id, chosen by the adapter (the machine draws no random numbers). */
  | { type: 'segment'; segment: SpeechSegment; id: string }
  | { type: 'segment_stored'; frame: ServerFrame }
  | { type: 'speech_failed' }
  | { type: 'tick' }
  | { type: 'durable_recorded'; bytes: number }
  /** The session's status as stored, read on a tick. */
  | { type: 'status_seen'; status: string }
  /** Another connection took the session over, finalisation began, or the server is stopping. */
  | { type: 'stop'; code: number; reason: string }
  | { type: 'socket_closed' }
  // The ending, one step at a time.
  | { type: 'audio_settled'; size: number }
  | { type: 'transitioned'; error?: string }
  /** `finished`: the recogniser flushed everything it was fed. */
  | { type: 'speech_ended'; finished: boolean }
  | { type: 'recording_closed' };

export type AmbientEffect =
  | { type: 'send'; frame: ServerFrame }
  | { type: 'reset_idle'; ms: number }
  /** `reason`: why the part began after a stretch nothing recorded (START_TIME's reason), null when not given. */
  | { type: 'store_start_time'; value: string; reason: PartStartReason | null }
  | { type: 'append'; pcm: Buffer }
  | { type: 'feed_speech'; pcm: Buffer }
  /** Store the entry, then feed back `segment_stored` with `frame`, which tells the client it is stored. */
  | { type: 'store_segment'; entry: LiveSegmentEntry; frame: ServerFrame }
  /** Record the durable length (when it changed) and read the session's status. */
  | { type: 'record_and_check_status'; durableBytes: number | null }
  // The ending, in this order; each step's result comes back as the next input.
  | { type: 'stop_timers' }
  | { type: 'settle_audio' }
  | { type: 'transition'; to: 'running' | 'aborted'; reason: string }
  /** `discard`: the live transcript's tail is not wanted; close the recogniser without waiting. */
  | { type: 'end_speech'; discard: boolean }
  | { type: 'close_recording'; durableBytes: number; liveTranscriptMs: number | null }
  | { type: 'unregister' }
  | { type: 'enqueue_finalisation' }
  | { type: 'notify_aborted' }
  | { type: 'release_slot' }
  | { type: 'close'; code: number; reason: string };
