import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { followSse, parseSseChunk, readSse, type SseEvent } from './sse';

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

describe('parseSseChunk retry', () => {
  it('gives an event its retry field when it has one (digits only)', () => {
    const { events } = parseSseChunk('retry: 1000\nevent: end\ndata: {}\n\nretry: soon\ndata: x\n\n');
    expect(events).toEqual([
      { event: 'end', data: '{}', retry: 1000 },
      { event: 'message', data: 'x' },
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

/** A real HTTP server that answers the n-th request with the n-th script step. */
type Step = (res: http.ServerResponse) => void;
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(steps: Step[]): Promise<{ url: string; requests: () => number }> {
  let n = 0;
  const server = http.createServer((_req, res) => {
    const step = steps[Math.min(n++, steps.length - 1)]!;
    step(res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`, requests: () => n };
}

const sse = (text: string): Step => (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(text);
};
const status = (s: string) => `event: status\ndata: {"status":"${s}"}\n\n`;
const end = (reason: string) => `retry: 1000\nevent: end\ndata: {"reason":"${reason}"}\n\n`;
const fail = (code: number, headers: Record<string, string> = {}): Step => (res) => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ code, message: 'no' }));
};

async function followAll(url: string, opts: { onUnauthorised?: () => Promise<void> } = {}) {
  const seen: string[] = [];
  const live: boolean[] = [];
  let terminal = false;
  await followSse({
    signal: new AbortController().signal,
    open: (signal) => fetch(url, { signal }),
    onEvent: (e) => {
      seen.push(e.event === 'status' ? (JSON.parse(e.data) as { status: string }).status : `end:${(JSON.parse(e.data) as { reason: string }).reason}`);
      if (e.event === 'status' && ['completed', 'failed'].includes((JSON.parse(e.data) as { status: string }).status)) terminal = true;
    },
    finished: () => terminal,
    onLive: (up) => live.push(up),
    onUnauthorised: opts.onUnauthorised,
    backoff: { firstMs: 1, maxMs: 4 },
  });
  return { seen, live };
}

describe('followSse', () => {
  it('reopens after the server ends a stream (lifetime, shutdown), after a dropped connection, a 5xx and a 429, until a terminal status', async () => {
    const s = await serve([
      sse(status('ready') + end('lifetime')),
      (res) => {
        // Up, then the connection drops before any event.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': up\n\n', () => res.socket?.destroy());
      },
      fail(503),
      fail(429),
      sse(status('running') + end('shutdown')),
      sse(status('running') + status('completed')),
      sse(status('never')),
    ]);
    const { seen, live } = await followAll(s.url);
    expect(seen).toEqual(['ready', 'end:lifetime', 'running', 'end:shutdown', 'running', 'completed']);
    expect(s.requests()).toBe(6);
    expect(live).toEqual([true, false, true, false, true, false, true, false]);
  });

  it('renews the token after a 401 and goes on', async () => {
    const s = await serve([fail(401), sse(status('completed'))]);
    let renewed = 0;
    const { seen } = await followAll(s.url, { onUnauthorised: async () => void renewed++ });
    expect(renewed).toBe(1);
    expect(seen).toEqual(['completed']);
  });

  it('gives up on 403 and 404, and after an end with reason disabled', async () => {
    for (const code of [403, 404]) {
      const s = await serve([fail(code), sse(status('completed'))]);
      expect((await followAll(s.url)).seen).toEqual([]);
      expect(s.requests()).toBe(1);
    }
    const s = await serve([sse(status('ready') + end('disabled')), sse(status('completed'))]);
    expect((await followAll(s.url)).seen).toEqual(['ready', 'end:disabled']);
    expect(s.requests()).toBe(1);
  });

  it('stops when aborted, also while waiting to reopen', async () => {
    const s = await serve([fail(503)]);
    const ctrl = new AbortController();
    const following = followSse({
      signal: ctrl.signal,
      open: (signal) => fetch(s.url, { signal }),
      onEvent: () => {},
      finished: () => false,
      backoff: { firstMs: 60_000, maxMs: 60_000 },
    });
    while (s.requests() === 0) await new Promise((r) => setTimeout(r, 10));
    ctrl.abort();
    await following;
    expect(s.requests()).toBe(1);
  });
});
