import type { RawData } from 'ws';
import { ClientFrame, EOF_MARKER, isPartStartReason, PART_START_REASONS, type PartStartReason } from '@/lib/contracts/stream-protocol';

/** A WebSocket message as one Buffer, whichever of its forms `ws` delivered it in. */
export const toBuffer = (data: RawData): Buffer => (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data));

export type ParsedFrame =
  /** `problem`: the reason was not one this server knows; the time still counts, the reason is stored as unknown. */
  | { kind: 'start_time'; value: string; reason: PartStartReason | null; problem?: string }
  | { kind: 'audio'; pcm: Buffer }
  | { kind: 'eof' }
  | { kind: 'event'; event: string }
  | { kind: 'error'; message: string };

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

export function decodeBase64(data: string): Buffer | null {
  if (BASE64.test(data)) return Buffer.from(data, 'base64');
  if (BASE64URL.test(data) && data.length % 4 !== 1) return Buffer.from(data, 'base64url');
  return null;
}

/** Checks an RFC 3339 time and returns it normalised for PostgreSQL (which keeps microseconds). */
export function parseRfc3339(text: string): string | null {
  const m = RFC3339.exec(text.trim());
  if (!m) return null;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${(m[7] ?? '').slice(0, 4)}${m[8]!.toUpperCase()}`);
  if (!Number.isFinite(ms)) return null;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${(m[7] ?? '').slice(0, 7)}${m[8]!.toUpperCase()}`;
}

/**
 * START_TIME must be a time a recording could plausibly have begun: not before 2000 and at most a day
 * ahead of the server's clock (skewed device clocks stay accepted). 9999-12-31T23:59:58Z was accepted
 * before, and every later transcript read of that session failed with a 500 (issue #12).
 */
export const START_TIME_EARLIEST = Date.UTC(2000, 0, 1);
export const START_TIME_MAX_AHEAD_MS = 24 * 3600_000;

export function startTimeProblem(value: string, now = Date.now()): string | null {
  const ms = Date.parse(value);
  if (ms < START_TIME_EARLIEST) return 'START_TIME must not be before 2000-01-01T00:00:00Z';
  if (ms > now + START_TIME_MAX_AHEAD_MS) return 'START_TIME must not be more than 24 hours ahead of the server clock';
  return null;
}

/**
 * START_TIME's optional `reason`, taken out before the frame is parsed. One this server does not know (a newer
 * recorder's, or a typo) is reported, like an unknown EVENT, but does not cost the recording its START_TIME:
 * without it the server would date the part by the arrival of its audio and could hide or invent a recording gap.
 */
function takeReason(raw: unknown): { frame: unknown; reason: PartStartReason | null; problem?: string } {
  if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'START_TIME' || !('reason' in raw)) return { frame: raw, reason: null };
  const { reason, ...frame } = raw as { reason: unknown };
  if (reason === null || isPartStartReason(reason)) return { frame, reason };
  return { frame, reason: null, problem: `START_TIME reason must be one of ${PART_START_REASONS.join(', ')}; the start time is kept and the reason ignored` };
}

/**
 * One client frame. Binary frames are raw PCM; text frames are JSON. PCM must be whole 16-bit samples:
 * an odd byte count would shift every later sample by one byte and turn the rest of the recording to noise.
 */
export function parseClientFrame(data: Buffer, isBinary: boolean): ParsedFrame {
  if (isBinary) {
    if (data.length % 2 !== 0) return { kind: 'error', message: `binary frame has ${data.length} bytes; PCM16 frames must have an even byte count` };
    return { kind: 'audio', pcm: data };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(data.toString('utf8'));
  } catch {
    return { kind: 'error', message: 'frame is not valid JSON' };
  }
  const { frame: checked, reason, problem: reasonProblem } = takeReason(raw);
  const parsed = ClientFrame.safeParse(checked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { kind: 'error', message: issue.path.length && !issue.message.startsWith(String(issue.path[0])) ? `${issue.path.join('.')}: ${issue.message}` : issue.message };
  }
  const f = parsed.data;
  if (f.type === 'EVENT') return { kind: 'event', event: f.event };
  if (f.type === 'AUDIO' && f.data === EOF_MARKER) return { kind: 'eof' };
  const bytes = decodeBase64(f.data);
  if (!bytes) return { kind: 'error', message: `${f.type} data is not valid base64` };
  if (f.type === 'START_TIME') {
    const value = parseRfc3339(bytes.toString('utf8'));
    if (!value) return { kind: 'error', message: 'START_TIME data must be the base64 of an RFC 3339 time such as 2026-01-31T09:30:00.000Z' };
    const problem = startTimeProblem(value);
    if (problem) return { kind: 'error', message: problem };
    return reasonProblem ? { kind: 'start_time', value, reason, problem: reasonProblem } : { kind: 'start_time', value, reason };
  }
  if (bytes.length % 2 !== 0) return { kind: 'error', message: `AUDIO data decodes to ${bytes.length} bytes; PCM16 frames must have an even byte count` };
  return { kind: 'audio', pcm: bytes };
}
