import { describe, expect, it } from 'vitest';
import { BYTES_PER_MS, CLOSE, EOF_FRAME, eventFrame, type ServerFrame } from '@/lib/contracts/stream-protocol';
import { TranscribeMachine, type TranscribeEffect, type TranscribeInput } from './transcribe-machine';

const T0 = Date.UTC(2026, 0, 31, 9, 30);
const machine = (limits: Partial<{ maxFrameBytes: number; idleTimeoutMs: number; maxAheadMs: number }> = {}) =>
  new TranscribeMachine({ maxFrameBytes: 64_000, idleTimeoutMs: 30_000, maxAheadMs: 30_000, ...limits });
const json = (o: unknown, now = T0): TranscribeInput => ({ type: 'message', data: Buffer.from(JSON.stringify(o)), isBinary: false, now });
const pcm = (ms: number, now = T0): TranscribeInput => ({ type: 'message', data: Buffer.alloc(ms * BYTES_PER_MS), isBinary: true, now });
const sent = (effects: TranscribeEffect[]): ServerFrame[] => effects.flatMap((e) => (e.type === 'send' ? [e.frame] : []));
const others = (effects: TranscribeEffect[]) => effects.filter((e) => e.type !== 'send' && e.type !== 'reset_idle');
const final = (text: string, startMs: number, endMs: number) => ({ text, startMs, endMs, isFinal: true, words: [] });

describe('TranscribeMachine', () => {
  it('opens the first utterance and says ready', () => {
    const fx = machine().open();
    expect(others(fx)).toEqual([{ type: 'open_utterance', utterance: 1 }]);
    expect(sent(fx)).toEqual([{ type: 'STATUS', status: 'ready' }]);
  });

  it('answers AUDIO_END with the utterance text once its recogniser has flushed, and starts the next utterance', () => {
    const m = machine();
    m.open();
    expect(others(m.step(pcm(1000)))).toEqual([{ type: 'feed_speech', utterance: 1, pcm: Buffer.alloc(1000 * BYTES_PER_MS) }]);
    // Results are pushed as recognised, partial and final, on the stream's timeline.
    expect(sent(m.step({ type: 'segment', utterance: 1, segment: { ...final('take', 100, 300), isFinal: false } }))).toEqual([
      { type: 'TRANSCRIPT', is_final: false, text: 'take', start_offset_ms: 100, end_offset_ms: 300 },
    ]);
    m.step({ type: 'segment', utterance: 1, segment: final(' take one tablet ', 100.4, 600) });
    m.step({ type: 'segment', utterance: 1, segment: final('daily', 650, 900.6) });
    expect(others(m.step(json(eventFrame('AUDIO_END'))))).toEqual([
      { type: 'open_utterance', utterance: 2 },
      { type: 'end_utterance', utterance: 1, flush: true },
    ]);
    // Audio after AUDIO_END belongs to the next utterance, whose offsets start where the first ended.
    expect(others(m.step(pcm(100)))).toEqual([{ type: 'feed_speech', utterance: 2, pcm: Buffer.alloc(100 * BYTES_PER_MS) }]);
    expect(sent(m.step({ type: 'utterance_ended', utterance: 1 }))).toEqual([
      { type: 'TRANSCRIPT', is_final: true, utterance_end: true, text: 'take one tablet daily', start_offset_ms: 100, end_offset_ms: 901 },
    ]);
    expect(sent(m.step({ type: 'segment', utterance: 2, segment: final('thanks', 10, 90) }))).toEqual([
      { type: 'TRANSCRIPT', is_final: true, text: 'thanks', start_offset_ms: 1010, end_offset_ms: 1090 },
    ]);
  });

  it('an utterance with no words ends at the audio received; a failed one is an ERROR 500 and is not flushed', () => {
    const m = machine();
    m.open();
    m.step(pcm(500));
    m.step(json(eventFrame('AUDIO_END')));
    expect(sent(m.step({ type: 'utterance_ended', utterance: 1 }))).toEqual([
      { type: 'TRANSCRIPT', is_final: true, utterance_end: true, text: '', start_offset_ms: 0, end_offset_ms: 500 },
    ]);
    m.step({ type: 'speech_failed', utterance: 2 });
    expect(others(m.step(pcm(100)))).toEqual([]);
    expect(others(m.step(json(eventFrame('AUDIO_END'))))).toContainEqual({ type: 'end_utterance', utterance: 2, flush: false });
    expect(sent(m.step({ type: 'utterance_ended', utterance: 2 }))).toEqual([{ type: 'ERROR', code: 500, message: 'speech recognition failed for this utterance' }]);
  });

  it('is not idle while the client waits for an utterance text a slow recogniser has not flushed yet', () => {
    const m = machine({ idleTimeoutMs: 5000 });
    m.open();
    m.step(pcm(800));
    m.step(json(eventFrame('AUDIO_END')));
    // The recogniser is far behind: the idle limit passes before utterance 1 is flushed.
    const waiting = m.step({ type: 'idle_timeout' });
    expect(waiting).toEqual([{ type: 'reset_idle', ms: 5000 }]);
    expect(sent(m.step({ type: 'utterance_ended', utterance: 1 }))).toEqual([
      { type: 'TRANSCRIPT', is_final: true, utterance_end: true, text: '', start_offset_ms: 0, end_offset_ms: 800 },
    ]);
    // Answered, the client is expected to speak or KEEP_ALIVE again.
    expect(others(m.step({ type: 'idle_timeout' })).at(-1)).toEqual({ type: 'close', code: CLOSE.IDLE, reason: 'idle timeout' });
  });

  it('EOF closes with 1000 after the last utterance is answered', () => {
    const m = machine();
    m.open();
    m.step(pcm(100));
    const eof = m.step(json(EOF_FRAME));
    expect(others(eof).map((e) => e.type)).toEqual(['open_utterance', 'end_utterance']);
    const fx = m.step({ type: 'utterance_ended', utterance: 1 });
    expect(sent(fx)[0]).toMatchObject({ type: 'TRANSCRIPT', utterance_end: true });
    expect(others(fx)).toEqual([
      { type: 'stop_timers' },
      { type: 'close_speech', utterance: 2 },
      { type: 'release_slot' },
      { type: 'unregister' },
      { type: 'close', code: CLOSE.NORMAL, reason: 'audio complete' },
    ]);
    expect(m.step({ type: 'socket_closed' })).toEqual([]);
  });

  it('closes on CANCEL, oversized frames, audio too far ahead and idleness, each once', () => {
    const cancel = machine();
    cancel.open();
    expect(others(cancel.step(json(eventFrame('CANCEL')))).at(-1)).toEqual({ type: 'close', code: 1000, reason: 'cancelled' });
    expect(cancel.step(pcm(100))).toEqual([]);

    const big = machine({ maxFrameBytes: 100 });
    big.open();
    const fx = big.step(pcm(10));
    expect(sent(fx)).toEqual([{ type: 'ERROR', code: 413, message: 'frame of 320 bytes exceeds the limit of 100 bytes' }]);
    expect(others(fx).at(-1)).toEqual({ type: 'close', code: CLOSE.TOO_LARGE, reason: 'frame too large' });

    const fast = machine({ maxAheadMs: 500 });
    fast.open();
    fast.step(pcm(400, T0));
    const ahead = fast.step(pcm(200, T0 + 10));
    expect(sent(ahead)[0]).toMatchObject({ code: 429 });
    expect(others(ahead).at(-1)).toEqual({ type: 'close', code: CLOSE.TOO_FAST, reason: 'audio faster than real time' });

    const idle = machine({ idleTimeoutMs: 5000 });
    idle.open();
    const quiet = idle.step({ type: 'idle_timeout' });
    expect(sent(quiet)).toEqual([{ type: 'ERROR', code: 408, message: 'no frame for 5000 ms; send KEEP_ALIVE events while not sending audio' }]);
    expect(others(quiet).at(-1)).toEqual({ type: 'close', code: CLOSE.IDLE, reason: 'idle timeout' });
    expect(idle.step({ type: 'stop', code: 1001, reason: 'server restarting' })).toEqual([]);
  });

  it('names unknown events and malformed frames, ignores START_TIME, and keeps the stream open', () => {
    const m = machine();
    m.open();
    expect(sent(m.step(json(eventFrame('PAUSE'))))).toEqual([{ type: 'ERROR', code: 400, message: 'event must be one of AUDIO_END, KEEP_ALIVE, CANCEL, ABORT' }]);
    expect(sent(m.step(json({ type: 'NOPE' }))))
      .toEqual([{ type: 'ERROR', code: 400, message: 'type must be one of START_TIME, AUDIO, EVENT' }]);
    expect(m.step(json({ type: 'START_TIME', data: Buffer.from('2026-01-31T09:30:00Z').toString('base64') }))).toEqual([{ type: 'reset_idle', ms: 30_000 }]);
    expect(m.step(json(eventFrame('KEEP_ALIVE')))).toEqual([{ type: 'reset_idle', ms: 30_000 }]);
  });
});
