import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CLOSE } from '@/lib/contracts/stream-protocol';
import { AmbientLink, type LinkStatus } from './ambient-link';
import { STALL_MS } from './recorder-policy';

/** A browser WebSocket the test opens, answers and closes; the link cannot tell it from a real one. */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  binaryType = 'blob';
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(d: unknown) {
    this.sent.push(d);
  }
  close(code?: number) {
    this.closedWith = code;
    this.readyState = FakeSocket.CLOSED;
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  message(data: string) {
    this.onmessage?.({ data });
  }
  drop(code: number) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

const win = new EventTarget();
const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' });
const nav = { onLine: true };

function makeLink(over: { awaitingAck?: () => boolean; checkSession?: () => Promise<string | null>; onClosed?: (code: number) => boolean } = {}) {
  const statuses: LinkStatus[] = [];
  const fatal: string[] = [];
  const link = new AmbientLink({
    url: 'ws://test/ws/ambient',
    sessionId: 's-1',
    getToken: async () => 'tok',
    checkSession: over.checkSession ?? (async () => 'ready'),
    onOpen: () => undefined,
    onMessage: () => undefined,
    onClosed: over.onClosed ?? (() => false),
    onFatal: (_k, m) => fatal.push(m),
    onStatus: (s) => statuses.push(s),
    awaitingAck: over.awaitingAck ?? (() => false),
  });
  return { link, statuses, fatal };
}

/** Runs timers and promise callbacks until the next socket exists (or `limitMs` passes); the wait it took. */
async function nextSocket(limitMs = 60_000): Promise<{ socket: FakeSocket; waitedMs: number }> {
  const before = FakeSocket.all.length;
  let waited = 0;
  while (FakeSocket.all.length === before && waited < limitMs) {
    await vi.advanceTimersByTimeAsync(10);
    waited += 10;
  }
  if (FakeSocket.all.length === before) throw new Error(`no attempt within ${limitMs} ms`);
  return { socket: FakeSocket.all.at(-1)!, waitedMs: waited };
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  nav.onLine = true;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('window', win);
  vi.stubGlobal('document', doc);
  vi.stubGlobal('navigator', nav);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AmbientLink', () => {
  it('never stops trying while the server is away, each wait at most 4 s', async () => {
    const { link, statuses } = makeLink();
    link.start();
    let { socket } = await nextSocket();
    const waits: number[] = [];
    for (let i = 0; i < 40; i++) {
      socket.drop(1006); // refused: the server is down
      const next = await nextSocket();
      waits.push(next.waitedMs);
      socket = next.socket;
    }
    expect(Math.max(...waits)).toBeLessThanOrEqual(4_010);
    expect(waits.slice(-10).every((w) => w >= 2_000)).toBe(true); // backed off, with jitter above half the cap
    expect(statuses.at(-1)!.downSince).not.toBeNull();
    socket.open();
    expect(statuses.at(-1)!.state).not.toBe('connected'); // open, but the server has not spoken yet
    socket.message('{"type":"STATUS","status":"ready"}');
    expect(statuses.at(-1)).toMatchObject({ state: 'connected', downSince: null });
    link.stop();
  });

  it('waits longer after a stream-cap refusal (4429) than after a drop, and a successful request does not cut it short', async () => {
    const { link } = makeLink();
    link.start();
    let { socket } = await nextSocket();
    socket.open();
    socket.message('{"type":"STATUS","status":"ready"}');
    socket.drop(1006);
    const afterDrop = await nextSocket();
    expect(afterDrop.waitedMs).toBeLessThanOrEqual(260);
    socket = afterDrop.socket;
    socket.open();
    socket.message('{"type":"ERROR","code":429,"message":"STREAMS_PER_PROVIDER"}');
    socket.drop(CLOSE.TOO_FAST);
    await vi.advanceTimersByTimeAsync(500);
    link.retryNow(); // a status poll succeeded meanwhile
    const afterRefusal = await nextSocket();
    expect(afterRefusal.waitedMs + 500).toBeGreaterThanOrEqual(1_000);
    link.stop();
  });

  it('retries at once when the browser comes back online', async () => {
    const { link } = makeLink();
    link.start();
    let { socket } = await nextSocket();
    for (let i = 0; i < 6; i++) {
      socket.drop(1006);
      socket = (await nextSocket()).socket;
    }
    nav.onLine = false;
    win.dispatchEvent(new Event('offline'));
    socket.drop(1006);
    await vi.advanceTimersByTimeAsync(20);
    const count = FakeSocket.all.length;
    nav.onLine = true;
    win.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all.length).toBe(count + 1);
    link.stop();
  });

  it('drops an open connection at the offline event, and one that stalls with audio awaiting its ACK', async () => {
    let awaiting = false;
    const { link, statuses } = makeLink({ awaitingAck: () => awaiting });
    link.start();
    let { socket } = await nextSocket();
    socket.open();
    nav.onLine = false;
    win.dispatchEvent(new Event('offline'));
    expect(socket.readyState).toBe(FakeSocket.CLOSED);
    expect(statuses.at(-1)!.state).toBe('offline');
    nav.onLine = true;
    win.dispatchEvent(new Event('online'));
    socket = (await nextSocket()).socket;
    socket.open();
    socket.message('{"type":"STATUS","status":"ready"}');
    awaiting = true; // audio sent, and then the server only repeats its last ACK: slow, but alive
    for (let t = 0; t < 2 * STALL_MS; t += 2_000) {
      await vi.advanceTimersByTimeAsync(2_000);
      socket.message('{"type":"ACK","received_ms":1,"session_ms":1}');
    }
    expect(socket.readyState).toBe(FakeSocket.OPEN);
    // Then nothing at all comes back.
    const next = await nextSocket(2 * STALL_MS);
    expect(socket.readyState).toBe(FakeSocket.CLOSED);
    expect(next.waitedMs).toBeGreaterThanOrEqual(STALL_MS);
    link.stop();
  });

  it('renews a connection at once for the next recording part: a normal close, no backoff, still "connected"', async () => {
    const closes: number[] = [];
    const { link, statuses } = makeLink({ onClosed: (code) => (closes.push(code), false) });
    link.start();
    const { socket: first } = await nextSocket();
    first.open();
    first.message('{"type":"STATUS","status":"ready"}');
    const seen = statuses.length;
    link.renew();
    // A plain client close, which the server treats as a dropped connection (the session stays open); not EOF.
    expect(first.readyState).toBe(FakeSocket.CLOSED);
    expect(first.closedWith).toBe(CLOSE.NORMAL);
    expect(first.sent).toEqual([]);
    const { socket: second, waitedMs } = await nextSocket();
    expect(waitedMs).toBeLessThanOrEqual(10);
    // The old socket's own close event, arriving later, is not a drop.
    first.onclose?.({ code: 1006 });
    expect(closes).toEqual([]);
    second.open();
    second.message('{"type":"STATUS","status":"ready"}');
    expect(statuses.slice(seen).map((s) => s.state)).toEqual(['connected']);
    expect(statuses.at(-1)!.reconnects).toBe(0);
    // A renewal whose connection fails is an ordinary failed attempt: retried with backoff, shown as reconnecting.
    link.renew();
    const { socket: third } = await nextSocket();
    third.drop(1006);
    expect(closes).toEqual([1006]);
    expect(statuses.at(-1)!.state).toBe('reconnecting');
    await nextSocket();
    link.stop();
  });

  it('stops only for a refusal no retry fixes', async () => {
    const { link, fatal } = makeLink();
    link.start();
    const { socket } = await nextSocket();
    socket.open();
    socket.drop(CLOSE.CONFLICT);
    expect(fatal[0]).toMatch(/already ended/);
    await expect(nextSocket(30_000)).rejects.toThrow(/no attempt/);
  });
});
