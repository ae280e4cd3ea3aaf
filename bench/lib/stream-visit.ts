/**
 * One visit as a client sends it: a session, a /ws/ambient stream of 100 ms frames paced by the clock (a
 * late timer sends the frames it owes, as a capture buffer would), EOF, then the wait for a terminal status
 * on the session's Server-Sent Events stream. Shared by bench:turnaround and bench:load.
 */
import WebSocket from 'ws';
import { AUTH_PROTOCOL, BYTES_PER_MS, EOF_FRAME } from '../../lib/contracts/stream-protocol';
import type { TestProvider } from '../../server/test/partners';

export const FRAME_MS = 100;
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;
const TERMINAL = ['completed', 'skipped', 'failed', 'aborted'];

export async function createSession(baseUrl: string, dr: TestProvider): Promise<string> {
  const r = await fetch(`${baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
  if (r.status !== 201 && r.status !== 200) throw new Error(`session create answered ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { ambient_session_id: string }).ambient_session_id;
}

export interface StreamedVisit {
  ws: WebSocket;
  audioMs: number;
  /** Audio the live transcript had not reached when the last frame was sent. */
  liveLagAtEofMs: number;
  /** performance.now() when EOF was sent. */
  eofAt: number;
  errors: string[];
}

/** Streams `audio` at `speed` × real time and sends EOF; the socket is left to the server to close. */
export async function streamVisit(wsUrl: string, sessionId: string, token: string, audio: Buffer, speed = 1): Promise<StreamedVisit> {
  const ws = new WebSocket(`${wsUrl}/ws/ambient`, [AUTH_PROTOCOL, sessionId, token]);
  let transcriptMs = 0;
  const errors: string[] = [];
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as { type: string; end_offset_ms?: number; message?: string };
    if (f.type === 'TRANSCRIPT') transcriptMs = Math.max(transcriptMs, f.end_offset_ms ?? 0);
    if (f.type === 'ERROR') errors.push(f.message ?? 'ERROR frame');
  });
  ws.on('error', (e) => errors.push(e.message));
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from(new Date().toISOString()).toString('base64') }));
  const frames = Math.floor(audio.length / FRAME_BYTES);
  const t0 = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(frames, Math.floor(((performance.now() - t0) * speed) / FRAME_MS) + 1);
      while (sent < due && ws.readyState === WebSocket.OPEN) {
        ws.send(audio.subarray(sent * FRAME_BYTES, (sent + 1) * FRAME_BYTES));
        sent++;
      }
      if (sent >= frames || ws.readyState !== WebSocket.OPEN) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  if (sent < frames) errors.push(`socket closed after ${sent} of ${frames} frames`);
  const audioMs = frames * FRAME_MS;
  const liveLagAtEofMs = audioMs - transcriptMs;
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(EOF_FRAME));
  return { ws, audioMs, liveLagAtEofMs, eofAt: performance.now(), errors };
}

/**
 * The session's first terminal status from its status events (the push a web client listens to), or
 * 'timeout' once `timeoutMs` has passed; the time it was heard is performance.now() at return.
 */
export async function waitForTerminal(baseUrl: string, sessionId: string, dr: TestProvider, timeoutMs: number): Promise<string> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    // The events stream ends at a terminal status or when the server drops it; then it is opened again.
    while (!ctl.signal.aborted) {
      const r = await fetch(`${baseUrl}/api/v1/ambient/session/${sessionId}/status/events`, { headers: dr.headers, signal: ctl.signal });
      if (r.status !== 200 || !r.body) throw new Error(`status events answered ${r.status}`);
      let buf = '';
      for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
        buf += Buffer.from(chunk).toString('utf8');
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const data = /^data: (.*)$/m.exec(buf.slice(0, i))?.[1];
          buf = buf.slice(i + 2);
          const status = data ? (JSON.parse(data) as { status: string }).status : undefined;
          if (status && TERMINAL.includes(status)) return status;
        }
      }
    }
    return 'timeout';
  } catch (err) {
    if (ctl.signal.aborted) return 'timeout';
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
