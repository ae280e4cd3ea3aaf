import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BYTES_PER_MS, CLOSE, EOF_FRAME, eventFrame, type ServerFrame } from '@/lib/contracts/stream-protocol';
import { AmbientMachine, type AmbientEffect, type AmbientInput, type AmbientLimits, type AmbientRecording } from './ambient-machine';

const LIMITS: AmbientLimits = { maxFrameBytes: 64_000, idleTimeoutMs: 30_000, maxAheadMs: 30_000, maxSessionSeconds: 3600 };
const REC: AmbientRecording = { id: 'rec-2', sequenceNumber: 2, sessionOffsetMs: 5_000, nextLivePosition: 7 };
const T0 = Date.UTC(2026, 0, 31, 9, 30);

const machine = (limits: Partial<AmbientLimits> = {}, rec = REC) => new AmbientMachine('session-1', rec, { ...LIMITS, ...limits });
const json = (o: unknown, now = T0): AmbientInput => ({ type: 'message', data: Buffer.from(JSON.stringify(o)), isBinary: false, now });
const pcm = (ms: number, now = T0): AmbientInput => ({ type: 'message', data: Buffer.alloc(ms * BYTES_PER_MS), isBinary: true, now });
const sent = (effects: AmbientEffect[]): ServerFrame[] => effects.flatMap((e) => (e.type === 'send' ? [e.frame] : []));
const kinds = (effects: AmbientEffect[]) => effects.map((e) => e.type).filter((t) => t !== 'send' && t !== 'reset_idle');

/** Runs the ending the way the adapter does, with the given results, and returns every effect in order. */
function finish(m: AmbientMachine, first: AmbientEffect[], results: { size?: number; transitionError?: string; speechFinished?: boolean } = {}): AmbientEffect[] {
  const all = [...first];
  let queue = first;
  while (queue.length) {
    const next: AmbientEffect[] = [];
    for (const e of queue) {
      const input: AmbientInput | null =
        e.type === 'settle_audio'
          ? { type: 'audio_settled', size: results.size ?? 0 }
          : e.type === 'transition'
            ? { type: 'transitioned', error: results.transitionError }
            : e.type === 'end_speech'
              ? { type: 'speech_ended', finished: results.speechFinished ?? true }
              : e.type === 'close_recording'
                ? { type: 'recording_closed' }
                : null;
      if (input) next.push(...m.step(input));
    }
    all.push(...next);
    queue = next;
  }
  return all;
}

describe('AmbientMachine', () => {
  it('opens with STATUS ready naming the recording', () => {
    expect(sent(machine().open())).toEqual([{ type: 'STATUS', status: 'ready', recording_id: 'rec-2', sequence_number: 2 }]);
  });

  it('stores audio, feeds the recogniser and ACKs only what the store confirms, on the session timeline', () => {
    const m = machine();
    const fx = m.step(pcm(100));
    expect(kinds(fx)).toEqual(['store_start_time', 'append', 'feed_speech']);
    expect(fx.find((e) => e.type === 'store_start_time')).toEqual({ type: 'store_start_time', value: new Date(T0).toISOString(), reason: null });
    expect(sent(fx)).toEqual([]);
    expect(sent(m.step({ type: 'appended', size: 1600 }))).toEqual([{ type: 'ACK', received_ms: 50, session_ms: 5_050 }]);
    // A smaller size reported late never moves the ACK back, and an unchanged one is not repeated.
    expect(sent(m.step({ type: 'appended', size: 800 }))).toEqual([]);
    expect(sent(m.step({ type: 'appended', size: 3200 }))).toEqual([{ type: 'ACK', received_ms: 100, session_ms: 5_100 }]);
  });

  it('takes START_TIME only before the first audio, and only once', () => {
    const m = machine();
    const at = '2026-01-31T09:29:00.000Z';
    expect(kinds(m.step(json({ type: 'START_TIME', data: Buffer.from(at).toString('base64') })))).toEqual(['store_start_time']);
    expect(sent(m.step(json({ type: 'START_TIME', data: Buffer.from(at).toString('base64') })))).toEqual([
      { type: 'ERROR', code: 409, message: 'START_TIME was already given for this recording; ignored' },
    ]);
    // No default start time once one was given.
    expect(kinds(m.step(pcm(100)))).toEqual(['append', 'feed_speech']);
    const late = machine();
    late.step(pcm(100));
    expect(sent(late.step(json({ type: 'START_TIME', data: Buffer.from(at).toString('base64') })))[0]).toMatchObject({ code: 409, message: /before the first AUDIO/ });
  });

  it("stores START_TIME's reason with it; an unknown reason is reported and the time still stored, without a reason", () => {
    const data = Buffer.from('2026-01-31T09:29:00.000Z').toString('base64');
    expect(machine().step(json({ type: 'START_TIME', data, reason: 'PAUSED' }))).toContainEqual({ type: 'store_start_time', value: '2026-01-31T09:29:00.000Z', reason: 'PAUSED' });
    const fx = machine().step(json({ type: 'START_TIME', data, reason: 'LUNCH' }));
    expect(sent(fx)).toEqual([{ type: 'ERROR', code: 400, message: expect.stringMatching(/^START_TIME reason must be one of PAUSED, .*the start time is kept and the reason ignored$/) }]);
    expect(fx).toContainEqual({ type: 'store_start_time', value: '2026-01-31T09:29:00.000Z', reason: null });
  });

  it('refuses audio while paused and answers PAUSE and RESUME with STATUS', () => {
    const m = machine();
    expect(sent(m.step(json(eventFrame('PAUSE'))))).toEqual([{ type: 'STATUS', status: 'ready', paused: true }]);
    expect(sent(m.step(pcm(100)))).toEqual([{ type: 'ERROR', code: 409, message: 'the stream is paused; send a RESUME event before more audio' }]);
    expect(sent(m.step(json(eventFrame('RESUME'))))).toEqual([{ type: 'STATUS', status: 'ready', paused: false }]);
    expect(kinds(m.step(pcm(100)))).toContain('append');
  });

  it('names malformed frames and unknown events without ending the stream', () => {
    const m = machine();
    expect(sent(m.step(json({ type: 'EVENT', event: 'JUMP' })))).toEqual([{ type: 'ERROR', code: 400, message: 'event must be one of KEEP_ALIVE, PAUSE, RESUME, CANCEL, ABORT' }]);
    expect(sent(m.step({ type: 'message', data: Buffer.alloc(3), isBinary: true, now: T0 }))[0]).toMatchObject({ code: 400 });
    expect(m.isEnding).toBe(false);
    expect(m.step(json(eventFrame('KEEP_ALIVE')))).toEqual([{ type: 'reset_idle', ms: 30_000 }]);
  });

  it('closes with 4413 on an oversized frame and 4429 on audio far ahead of real time', () => {
    const big = machine({ maxFrameBytes: 1000 });
    const fx = finish(big, big.step(pcm(100)));
    expect(sent(fx)[0]).toEqual({ type: 'ERROR', code: 413, message: 'frame of 3200 bytes exceeds the limit of 1000 bytes' });
    expect(fx.at(-1)).toEqual({ type: 'close', code: CLOSE.TOO_LARGE, reason: 'frame of 3200 bytes exceeds the limit of 1000 bytes' });

    const fast = machine({ maxAheadMs: 1000 });
    fast.step(pcm(1000, T0));
    const ahead = finish(fast, fast.step(pcm(100, T0 + 50)));
    expect(sent(ahead)[0]).toMatchObject({ type: 'ERROR', code: 429 });
    expect(ahead.at(-1)).toMatchObject({ type: 'close', code: CLOSE.TOO_FAST });
    expect(kinds(ahead)).not.toContain('append');
  });

  it('takes a resent backlog at once when the session is older than its audio, and refuses audio that outruns the session too', () => {
    // Created 60 s ago with 5 s stored: a reconnect may bring up to 55 s (+ the 1 s allowance) in one go.
    const backlog = machine({ maxAheadMs: 1000 }, { ...REC, sessionCreatedAt: T0 - 60_000 });
    for (let s = 0; s < 55; s++) {
      const fx = backlog.step(pcm(1_000, T0 + s));
      expect(kinds(fx), `second ${s} of the backlog`).toContain('append');
      expect(sent(fx)).toEqual([]);
    }
    // 5 s stored + 55 s on this connection is 60 s of audio 60.06 s after the session was created; 2 s more
    // would be 1.9 s ahead of the session's clock (and far ahead of the connection's).
    const beyond = finish(backlog, backlog.step(pcm(2_000, T0 + 60)));
    expect(sent(beyond)[0]).toMatchObject({ type: 'ERROR', code: 429 });
    expect(beyond.at(-1)).toMatchObject({ type: 'close', code: CLOSE.TOO_FAST });
    expect(kinds(beyond)).not.toContain('append');
  });

  it('cuts audio at the maximum session length, then ends as EOF', () => {
    // 1 s allowed in all; this recording starts 0.5 s into the session.
    const m = machine({ maxSessionSeconds: 1 }, { ...REC, sessionOffsetMs: 500 });
    const fx = m.step(pcm(800));
    const appended = fx.find((e) => e.type === 'append');
    expect(appended && appended.type === 'append' && appended.pcm.length).toBe(500 * BYTES_PER_MS);
    expect(sent(fx)[0]).toMatchObject({ type: 'ERROR', code: 413 });
    expect(m.isEnding).toBe(true);
    expect(kinds(fx).slice(-2)).toEqual(['stop_timers', 'settle_audio']);
  });

  it('ends on EOF: final ACK, running, recording closed with the live length, finalisation queued, then close 1000', () => {
    const m = machine();
    m.step(pcm(100));
    const fx = finish(m, m.step(json(EOF_FRAME)), { size: 3200 });
    expect(kinds(fx)).toEqual(['stop_timers', 'settle_audio', 'transition', 'end_speech', 'close_recording', 'unregister', 'enqueue_finalisation', 'release_slot', 'close']);
    expect(fx.find((e) => e.type === 'transition')).toEqual({ type: 'transition', to: 'running', reason: 'stream EOF' });
    expect(fx.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: false });
    expect(fx.find((e) => e.type === 'close_recording')).toEqual({ type: 'close_recording', durableBytes: 3200, liveTranscriptMs: 100 });
    expect(sent(fx)).toEqual([
      { type: 'ACK', received_ms: 100, session_ms: 5_100 },
      { type: 'STATUS', status: 'running' },
    ]);
    expect(fx.at(-1)).toEqual({ type: 'close', code: 1000, reason: 'audio complete' });
    // Nothing more is read once ending.
    expect(m.step(pcm(100))).toEqual([]);
  });

  it('reports a refused EOF transition with ERROR 409 and close 4409, and queues nothing', () => {
    const m = machine();
    const fx = finish(m, m.step(json(EOF_FRAME)), { transitionError: 'session is completed' });
    // The final ACK goes out even for an empty recording: the client learns that nothing more is stored.
    expect(sent(fx)).toEqual([
      { type: 'ACK', received_ms: 0, session_ms: 5_000 },
      { type: 'ERROR', code: 409, message: 'session is completed' },
    ]);
    expect(kinds(fx)).not.toContain('enqueue_finalisation');
    expect(fx.at(-1)).toEqual({ type: 'close', code: CLOSE.CONFLICT, reason: 'session is completed' });
  });

  it('CANCEL aborts the session, discards the live tail and notifies; ABORT keeps the session ready', () => {
    const c = machine();
    c.step(pcm(100));
    const cancelled = finish(c, c.step(json(eventFrame('CANCEL'))));
    expect(cancelled.find((e) => e.type === 'transition')).toMatchObject({ to: 'aborted' });
    expect(cancelled.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: true });
    expect(cancelled.find((e) => e.type === 'close_recording')).toMatchObject({ liveTranscriptMs: null });
    expect(kinds(cancelled)).toContain('notify_aborted');
    expect(cancelled.at(-1)).toEqual({ type: 'close', code: 1000, reason: 'session cancelled' });

    const a = machine();
    const aborted = finish(a, a.step(json(eventFrame('ABORT'))));
    expect(kinds(aborted)).not.toContain('transition');
    expect(sent(aborted)).toEqual([
      { type: 'ACK', received_ms: 0, session_ms: 5_000 },
      { type: 'STATUS', status: 'ready' },
    ]);
    expect(aborted.at(-1)).toEqual({ type: 'close', code: 1000, reason: 'stream ended; the session stays open for a new stream' });
  });

  it('stores final live segments before telling the client, on the session timeline with the next positions', () => {
    const m = machine();
    const seg = { text: 'cough for two weeks', startMs: 100.4, endMs: 900.6, isFinal: true, words: [{ word: 'cough', startMs: 100, endMs: 300, confidence: 0.4 }] };
    const [store] = m.step({ type: 'segment', segment: seg, id: 'entry-1' });
    expect(store).toMatchObject({ type: 'store_segment', entry: { id: 'entry-1', position: 7, speaker: 'UNKNOWN', langId: 'en-US', startOffsetMs: 5_100, endOffsetMs: 5_901 } });
    expect(store!.type === 'store_segment' && store!.entry.words).toEqual([{ text: 'cough', startMs: 5_100, endMs: 5_300, confidence: 0.4 }]);
    expect(m.step({ type: 'segment', segment: { ...seg, text: 'next' }, id: 'entry-2' })[0]).toMatchObject({ entry: { position: 8, words: [{ confidence: 0.4 }] } });
    expect(sent(m.step({ type: 'segment_stored', frame: store!.type === 'store_segment' ? store!.frame : (null as never) }))).toEqual([
      { type: 'TRANSCRIPT', is_final: true, transcript_id: 'entry-1', text: 'cough for two weeks', start_offset_ms: 5_100, end_offset_ms: 5_901 },
    ]);
    // Partials go straight out; blank finals are dropped.
    expect(sent(m.step({ type: 'segment', segment: { ...seg, isFinal: false, text: 'cou' }, id: 'x' }))).toEqual([
      { type: 'TRANSCRIPT', is_final: false, text: 'cou', start_offset_ms: 5_100, end_offset_ms: 5_901 },
    ]);
    expect(m.step({ type: 'segment', segment: { ...seg, text: '  ' }, id: 'y' })).toEqual([]);
  });

  it('gives up live partials first when the recogniser falls behind, and still stores every final', () => {
    const m = machine();
    m.step(json({ type: 'START_TIME', data: Buffer.from(new Date(T0).toISOString()).toString('base64') }));
    for (let i = 0; i < 4; i++) expect(kinds(m.step(pcm(2_000)))).toContain('feed_speech');
    const seg = (endMs: number, isFinal: boolean) => ({ text: 'shortness of breath', startMs: endMs - 800, endMs, isFinal, words: [] });
    // 8 s fed: a partial ending at 2.9 s is 5.1 s behind, past PARTIALS_MAX_LAG_MS, and not sent.
    expect(m.step({ type: 'segment', segment: seg(2_900, false), id: 'p1' })).toEqual([]);
    expect(sent(m.step({ type: 'segment', segment: seg(3_000, false), id: 'p2' }))).toEqual([
      { type: 'TRANSCRIPT', is_final: false, text: 'shortness of breath', start_offset_ms: 7_200, end_offset_ms: 8_000 },
    ]);
    // A final is stored however far behind it is.
    expect(kinds(m.step({ type: 'segment', segment: seg(900, true), id: 'f1' }))).toEqual(['store_segment']);
    // More audio moves the bound: the same partial that was sent is now too late.
    m.step(pcm(1_000));
    expect(m.step({ type: 'segment', segment: seg(3_000, false), id: 'p3' })).toEqual([]);
  });

  it('stops feeding the recogniser once it failed, and then reports no live length', () => {
    const m = machine();
    m.step({ type: 'speech_failed' });
    expect(kinds(m.step(pcm(100)))).toEqual(['store_start_time', 'append']);
    const fx = finish(m, m.step(json(EOF_FRAME)), { size: 3200 });
    expect(fx.find((e) => e.type === 'close_recording')).toMatchObject({ liveTranscriptMs: null });
  });

  it('records the durable length on a tick only when it changed, and ends when the session left ready elsewhere', () => {
    const m = machine();
    expect(m.step({ type: 'tick' })).toEqual([{ type: 'record_and_check_status', durableBytes: null }]);
    m.step({ type: 'appended', size: 6400 });
    expect(m.step({ type: 'tick' })).toEqual([{ type: 'record_and_check_status', durableBytes: 6400 }]);
    m.step({ type: 'durable_recorded', bytes: 6400 });
    expect(m.step({ type: 'tick' })).toEqual([{ type: 'record_and_check_status', durableBytes: null }]);
    expect(m.step({ type: 'status_seen', status: 'ready' })).toEqual([]);
    const fx = finish(m, m.step({ type: 'status_seen', status: 'running' }), { size: 6400 });
    expect(sent(fx)[0]).toEqual({ type: 'STATUS', status: 'running' });
    expect(kinds(fx)).not.toContain('transition');
    expect(fx.at(-1)).toEqual({ type: 'close', code: 1000, reason: 'session is running' });
    expect(m.step({ type: 'tick' })).toEqual([]);
  });

  it('repeats the last ACK on a tick while received audio waits to be stored, and only then', () => {
    const m = machine();
    m.step(pcm(1000));
    expect(sent(m.step({ type: 'tick' }))).toEqual([]); // nothing ACKed yet: there is no ACK to repeat
    expect(sent(m.step({ type: 'appended', size: 3200 }))).toEqual([{ type: 'ACK', received_ms: 100, session_ms: 5_100 }]);
    expect(sent(m.step({ type: 'tick' }))).toEqual([{ type: 'ACK', received_ms: 100, session_ms: 5_100 }]);
    m.step({ type: 'appended', size: 32_000 });
    expect(sent(m.step({ type: 'tick' }))).toEqual([]);
  });

  it('a takeover sends ERROR 409 and closes 4409; a shutdown closes 1001 without waiting for the live tail', () => {
    const t = machine();
    const taken = finish(t, t.step({ type: 'stop', code: CLOSE.CONFLICT, reason: 'superseded by a newer connection for this session' }));
    expect(sent(taken)[0]).toEqual({ type: 'ERROR', code: 409, message: 'superseded by a newer connection for this session' });
    expect(taken.at(-1)).toMatchObject({ type: 'close', code: 4409 });
    const s = machine();
    const shut = finish(s, s.step({ type: 'stop', code: CLOSE.GOING_AWAY, reason: 'server restarting; reconnect to continue' }));
    expect(shut.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: true });
    expect(shut.at(-1)).toEqual({ type: 'close', code: 1001, reason: 'server restarting; reconnect to continue' });
  });

  it('does not wait for the live tail when a reconnect will wait on this stream: dropped socket, takeover', () => {
    const dropped = machine();
    dropped.step(pcm(100));
    const closed = finish(dropped, dropped.step({ type: 'socket_closed' }), { size: 3200 });
    expect(closed.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: true });
    const t = machine();
    const taken = finish(t, t.step({ type: 'stop', code: CLOSE.CONFLICT, reason: 'superseded by a newer connection for this session' }));
    expect(taken.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: true });
    // Ended over REST while the socket is open: nobody reconnects, so the live tail is still worth keeping.
    const ended = machine();
    const rest = finish(ended, ended.step({ type: 'status_seen', status: 'running' }));
    expect(rest.find((e) => e.type === 'end_speech')).toEqual({ type: 'end_speech', discard: false });
  });

  it('idles out with ERROR 408 and close 4408; a second ending request changes nothing', () => {
    const m = machine({ idleTimeoutMs: 5000 });
    const fx = m.step({ type: 'idle_timeout' });
    expect(sent(fx)).toEqual([{ type: 'ERROR', code: 408, message: 'no frame for 5000 ms; send KEEP_ALIVE events while not sending audio' }]);
    expect(m.step({ type: 'socket_closed' })).toEqual([]);
    expect(finish(m, fx).at(-1)).toMatchObject({ type: 'close', code: CLOSE.IDLE });
  });

  it('after EOF the client is waiting, not idle: a late idle timer sends nothing and changes nothing', () => {
    const m = machine({ idleTimeoutMs: 5000 });
    m.step(pcm(100));
    m.step(json(EOF_FRAME));
    expect(m.step({ type: 'idle_timeout' })).toEqual([]);
  });

  it('never ACKs more than was stored, whatever the order of frames and store results', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 200 }).map((ms) => ({ ms })), fc.integer({ min: 0, max: 1 << 20 }).map((size) => ({ size }))), { maxLength: 40 }), (steps) => {
        const m = machine({ maxAheadMs: 1e9 });
        let stored = 0;
        let lastAck = -1;
        for (const s of steps) {
          const fx = 'ms' in s ? m.step(pcm(s.ms)) : m.step({ type: 'appended', size: s.size });
          if ('size' in s) stored = Math.max(stored, s.size);
          for (const f of sent(fx)) {
            if (f.type !== 'ACK') continue;
            expect(f.received_ms).toBeGreaterThan(lastAck);
            expect(f.received_ms * BYTES_PER_MS).toBeLessThanOrEqual(stored);
            expect(f.session_ms).toBe(REC.sessionOffsetMs + f.received_ms);
            lastAck = f.received_ms;
          }
        }
      }),
    );
  });
});
