'use client';
import { create } from 'zustand';

export type RecorderPhase = 'idle' | 'starting' | 'recording' | 'paused' | 'finishing' | 'finished' | 'cancelled' | 'error';
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline';
export type RecorderErrorKind = 'mic-denied' | 'no-device' | 'mic-failed' | 'session-lost' | 'signed-out' | 'server';

export interface TranscriptLine {
  id: string;
  text: string;
  startMs: number;
  endMs: number;
  speaker?: string;
  isFinal: boolean;
  /**
   * A partial the connection dropped under: the server does not finish a dropped stream's last words live (the
   * reconnect would wait on them), so the line is kept as heard, marked, and the final transcript has it in full.
   */
  unfinished?: boolean;
}

export interface InputDevice {
  deviceId: string;
  label: string;
}

export interface RecorderState {
  sessionId: string | null;
  phase: RecorderPhase;
  connection: ConnectionState;
  /** Input level 0..1 (RMS of the last 100 ms). */
  level: number;
  /** Audio captured (excludes paused time). */
  elapsedMs: number;
  /** The visit's recorded time with this page's audio, earlier pages' included (FrameBuffer.timelineMs); null until known. */
  timelineMs: number | null;
  /** Captured audio the server has not yet confirmed storing. */
  unackedMs: number;
  ackedMs: number;
  reconnects: number;
  /** When the connection was lost (ms since epoch); null while connected. */
  downSinceMs: number | null;
  /** When the next connection attempt starts, while one is scheduled. */
  nextAttemptAt: number | null;
  /**
   * Audio kept on this device by an earlier page (reload, crash) and resent before new audio: how much, and
   * where it ends on the capture timeline (it is on the server once ackedMs reaches untilMs).
   */
  restored: { ms: number; untilMs: number; droppedMs: number } | null;
  /** The End was queued while audio was still unsent: the visit ends once it is sent. */
  endQueued: boolean;
  /** Unsent audio could not be kept on this device (storage refused, or over the limit): a reload would lose it. */
  notKept: 'failed' | 'over-limit' | null;
  /** Sound the browser never delivered from the microphone (capture-gaps.ts), in ms; 0 when none. */
  captureLostMs: number;
  lines: TranscriptLine[];
  partial: TranscriptLine | null;
  error: { kind: RecorderErrorKind; message: string } | null;
  devices: InputDevice[];
  deviceId: string;
}

export interface RecorderActions {
  reset(sessionId: string): void;
  patch(p: Partial<RecorderState>): void;
  /** A TRANSCRIPT frame: a partial replaces the previous partial; a final replaces it for good. */
  transcript(line: TranscriptLine): void;
  /** A SPEAKERS frame: the live pass's role for lines already shown (a label may change as it learns the voices). */
  speakers(labels: { transcript_id: string; speaker: string }[]): void;
  /** The connection dropped: the partial being heard stays on the page as an unfinished line. */
  connectionDropped(): void;
}

const initial: Omit<RecorderState, 'devices' | 'deviceId'> = {
  sessionId: null,
  phase: 'idle',
  connection: 'idle',
  level: 0,
  elapsedMs: 0,
  timelineMs: null,
  unackedMs: 0,
  ackedMs: 0,
  reconnects: 0,
  downSinceMs: null,
  nextAttemptAt: null,
  restored: null,
  endQueued: false,
  notKept: null,
  captureLostMs: 0,
  lines: [],
  partial: null,
  error: null,
};

export const useRecorderStore = create<RecorderState & RecorderActions>((set) => ({
  ...initial,
  devices: [],
  deviceId: '',
  reset: (sessionId) => set((s) => ({ ...initial, sessionId, devices: s.devices, deviceId: s.deviceId })),
  patch: (p) => set(p),
  transcript: (line) =>
    set((s) => {
      if (!line.isFinal) return { partial: line };
      const i = s.lines.findIndex((l) => l.id === line.id);
      const lines = i >= 0 ? s.lines.map((l, k) => (k === i ? line : l)) : [...s.lines, line];
      return { lines, partial: null };
    }),
  connectionDropped: () =>
    set((s) => (s.partial && s.partial.text.trim() ? { lines: [...s.lines, { ...s.partial, id: `unfinished-${s.partial.startMs}`, unfinished: true }], partial: null } : { partial: null })),
  speakers: (labels) =>
    set((s) => {
      const by = new Map(labels.map((l) => [l.transcript_id, l.speaker]));
      return { lines: s.lines.map((l) => (by.has(l.id) ? { ...l, speaker: by.get(l.id) } : l)) };
    }),
}));
