import { describe, expect, it } from 'vitest';
import { parseSseChunk, readSse, type SseEvent } from './sse';

describe('parseSseChunk', () => {
  it('returns complete events and keeps the unfinished tail', () => {
    const { events, rest } = parseSseChunk('event: status\ndata: {"status":"running"}\n\nevent: status\ndata: {"sta');
    expect(events).toEqual([{ event: 'status', data: '{"status":"running"}' }]);
    expect(rest).toBe('event: status\ndata: {"sta');
  });

  it('joins data lines, skips comments, defaults the event name and accepts CRLF', () => {
    const { events } = parseSseChunk(': keep-alive\r\n\r\ndata: a\r\ndata: b\r\n\r\nevent:x\ndata:no-space\n\n');
    expect(events).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'x', data: 'no-space' },
    ]);
  });
});

describe('readSse', () => {
  it('reads events split across chunks anywhere, to the end of the stream', async () => {
    const text = 'event: status\ndata: {"status":"running"}\n\nevent: status\ndata: {"status":"completed"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 7) c.enqueue(bytes.slice(i, i + 7));
        c.close();
      },
    });
    const seen: SseEvent[] = [];
    await readSse(body, (e) => seen.push(e));
    expect(seen.map((e) => JSON.parse(e.data).status)).toEqual(['running', 'completed']);
  });
});
