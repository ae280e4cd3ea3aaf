import { describe, expect, it } from 'vitest';
import { decodeBase64, parseClientFrame, parseRfc3339, startTimeProblem } from './frames';
import { closeCodeFor, closeReason, readCredentials } from './upgrade';
import { ApiError } from '@/lib/errors';
import { EOF_FRAME } from '@/lib/contracts/stream-protocol';
import type { IncomingMessage } from 'node:http';

const text = (o: unknown) => parseClientFrame(Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)), false);

describe('client frames', () => {
  it('parses START_TIME, AUDIO, EOF and EVENT frames', () => {
    expect(text({ type: 'START_TIME', data: Buffer.from('2026-01-31T09:30:00.123456789Z').toString('base64') })).toEqual({ kind: 'start_time', value: '2026-01-31T09:30:00.123456Z', reason: null });
    const pcm = Buffer.from([1, 0, 255, 127]);
    expect(text({ type: 'AUDIO', data: pcm.toString('base64') })).toEqual({ kind: 'audio', pcm });
    expect(text(EOF_FRAME)).toEqual({ kind: 'eof' });
    expect(text({ type: 'EVENT', event: 'KEEP_ALIVE' })).toEqual({ kind: 'event', event: 'KEEP_ALIVE' });
    expect(parseClientFrame(pcm, true)).toEqual({ kind: 'audio', pcm });
  });

  it("reads START_TIME's reason for a part after a stretch nothing recorded; an unknown one is reported but keeps the time", () => {
    const data = Buffer.from('2026-01-31T09:30:00Z').toString('base64');
    expect(text({ type: 'START_TIME', data, reason: 'PAUSED' })).toEqual({ kind: 'start_time', value: '2026-01-31T09:30:00Z', reason: 'PAUSED' });
    expect(text({ type: 'START_TIME', data, reason: 'PAGE_RELOADED' })).toMatchObject({ reason: 'PAGE_RELOADED' });
    expect(text({ type: 'START_TIME', data, reason: null })).toEqual({ kind: 'start_time', value: '2026-01-31T09:30:00Z', reason: null });
    expect(text({ type: 'START_TIME', data, reason: 'COFFEE' })).toEqual({
      kind: 'start_time',
      value: '2026-01-31T09:30:00Z',
      reason: null,
      problem: 'START_TIME reason must be one of PAUSED, PAGE_RELOADED, CAPTURE_STALLED, MICROPHONE_DISCONNECTED; the start time is kept and the reason ignored',
    });
    expect(text({ type: 'START_TIME', data, reason: 3 })).toMatchObject({ kind: 'start_time', reason: null, problem: expect.stringMatching(/^START_TIME reason must be/) });
    // Only START_TIME has one: elsewhere an extra key is stripped, as before.
    expect(text({ type: 'EVENT', event: 'KEEP_ALIVE', reason: 'PAUSED' })).toEqual({ kind: 'event', event: 'KEEP_ALIVE' });
  });

  it('names the problem in malformed frames', () => {
    expect(text('{')).toEqual({ kind: 'error', message: 'frame is not valid JSON' });
    expect(text({ type: 'VIDEO' })).toMatchObject({ message: expect.stringMatching(/START_TIME, AUDIO, EVENT/) });
    expect(text({ type: 'AUDIO' })).toMatchObject({ message: expect.stringMatching(/data/) });
    expect(text({ type: 'AUDIO', data: 'a b c' })).toMatchObject({ message: 'AUDIO data is not valid base64' });
    expect(text({ type: 'AUDIO', data: Buffer.from([1, 2, 3]).toString('base64') })).toMatchObject({ message: expect.stringMatching(/even byte count/) });
    expect(parseClientFrame(Buffer.from([1, 2, 3]), true)).toMatchObject({ kind: 'error' });
    expect(text({ type: 'START_TIME', data: Buffer.from('31/01/2026').toString('base64') })).toMatchObject({ message: expect.stringMatching(/RFC 3339/) });
  });

  it('accepts base64url and RFC 3339 offsets, rejects impossible dates', () => {
    expect(decodeBase64(Buffer.from([251, 255]).toString('base64url'))).toEqual(Buffer.from([251, 255]));
    expect(decodeBase64('%%%')).toBeNull();
    expect(parseRfc3339('2026-01-31T09:30:00+01:00')).toBe('2026-01-31T09:30:00+01:00');
    expect(parseRfc3339('2026-13-31T09:30:00Z')).toBeNull();
  });

  it('refuses a START_TIME no recording could have (issue #12: 9999-12-31 broke every later transcript read)', () => {
    const b64 = (t: string) => Buffer.from(t).toString('base64');
    expect(text({ type: 'START_TIME', data: b64('9999-12-31T23:59:58Z') })).toEqual({
      kind: 'error',
      message: 'START_TIME must not be more than 24 hours ahead of the server clock',
    });
    expect(text({ type: 'START_TIME', data: b64('0001-01-01T00:00:00Z') })).toMatchObject({ kind: 'error', message: expect.stringMatching(/before 2000/) });
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(startTimeProblem('2026-06-02T11:00:00Z', now)).toBeNull();
    expect(startTimeProblem('2026-06-02T13:00:00Z', now)).toMatch(/24 hours ahead/);
    expect(startTimeProblem('2000-01-01T00:00:00Z', now)).toBeNull();
  });
});

describe('upgrade credentials', () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  it('reads the subprotocol list first, then headers', () => {
    expect(readCredentials(req({ 'sec-websocket-protocol': 'AmbientAuth, 6f1d6a3e-0000-4000-8000-000000000000, tok.en.x, NPI-123456' }), 'ambient_session_id')).toEqual({
      resourceId: '6f1d6a3e-0000-4000-8000-000000000000',
      token: 'tok.en.x',
      providerId: 'NPI-123456',
      offeredProtocols: ['AmbientAuth', '6f1d6a3e-0000-4000-8000-000000000000', 'tok.en.x', 'NPI-123456'],
    });
    expect(readCredentials(req({ sdp_service_token: 't', transcription_session_id: 'id' }), 'transcription_session_id')).toMatchObject({ token: 't', resourceId: 'id' });
  });

  it('maps API errors to 4xxx close codes and keeps reasons within 123 bytes', () => {
    expect(closeCodeFor(new ApiError(404, 'gone')).code).toBe(4404);
    expect(closeCodeFor(new Error('db down'))).toEqual({ code: 1011, message: 'internal server error' });
    expect(Buffer.byteLength(closeReason('é'.repeat(200)))).toBeLessThanOrEqual(123);
  });
});
