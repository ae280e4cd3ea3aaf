/**
 * Concurrent real-time /ws/ambient streams: N clients each send 100 ms PCM16 frames at real time; the ACK
 * latency is the time from sending a frame to the ACK that covers it (audio durably stored). N steps up
 * until ACK p99 passes 250 ms. Reports the server's CPU and memory per stream. A second phase does the
 * same with the embedded speech engine on and reports how many live-transcribed streams keep up.
 *
 *   npm run bench:streams [-- --step-seconds 20 --max 1000 --speech-max 40 --no-speech]
 */
import os from 'node:os';
import WebSocket from 'ws';
import { AUTH_PROTOCOL, BYTES_PER_MS } from '../../lib/contracts/stream-protocol';
import { startServer, type TestServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../server/test/partners';
import { loadDialogues, visitAudio } from '../turnaround/synth';
import { pct, procStats, TICKS_PER_SECOND } from '../lib/stats';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const STEP_SECONDS = flag('step-seconds', 20);
const MAX_N = flag('max', 1000);
const SPEECH_MAX = flag('speech-max', 40);
const KNEE_MS = 250;
const FRAME_MS = 100;
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;


class Stream {
  ws!: WebSocket;
  private sentMs = 0;
  private pending: { endMs: number; t: number }[] = [];
  latencies: number[] = [];
  measuring = false;
  closedEarly: string | null = null;
  transcriptMs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly sessionId: string,
    private readonly token: string,
    private readonly audio: Buffer,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws = new WebSocket(this.url, [AUTH_PROTOCOL, this.sessionId, this.token]);
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.on('message', (data) => this.onMessage(data.toString()));
      this.ws.on('close', (code, reason) => {
        if (this.timer) this.closedEarly ??= `${code} ${reason.toString()}`;
      });
    });
  }

  private onMessage(text: string): void {
    const f = JSON.parse(text) as { type: string; received_ms?: number; end_offset_ms?: number };
    if (f.type === 'ACK') {
      const now = performance.now();
      while (this.pending.length && this.pending[0]!.endMs <= f.received_ms!) {
        const p = this.pending.shift()!;
        if (this.measuring) this.latencies.push(now - p.t);
      }
    } else if (f.type === 'TRANSCRIPT') {
      this.transcriptMs = Math.max(this.transcriptMs, f.end_offset_ms ?? 0);
    }
  }

  start(): void {
    this.ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from(new Date().toISOString()).toString('base64') }));
    const t0 = performance.now();
    let frames = 0;
    // Paced by the clock, not by the timer count, so a late timer sends the frames it owes (like a capture buffer).
    this.timer = setInterval(() => {
      const due = Math.floor((performance.now() - t0) / FRAME_MS) + 1;
      while (frames < due && this.ws.readyState === WebSocket.OPEN) {
        const off = (frames * FRAME_BYTES) % (this.audio.length - FRAME_BYTES);
        this.ws.send(this.audio.subarray(off, off + FRAME_BYTES));
        frames++;
        this.sentMs += FRAME_MS;
        this.pending.push({ endMs: this.sentMs, t: performance.now() });
      }
    }, FRAME_MS);
  }

  get audioSentMs(): number {
    return this.sentMs;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.ws.close();
  }
}

interface StepResult {
  n: number;
  p50: number;
  p99: number;
  cpuPercent: number;
  cpuPerStream: number;
  rssMb: number;
  memPerStreamKb: number;
  closedEarly: number;
  transcriptLagP50?: number;
  transcriptLagP95?: number;
}

async function createSessions(server: TestServer, dr: TestProvider, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(20, n - i) }, async () => {
        const r = await fetch(`${server.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
        return ((await r.json()) as { ambient_session_id: string }).ambient_session_id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

async function step(server: TestServer, dr: TestProvider, n: number, audio: Buffer, baselineRss: number, speech: boolean): Promise<StepResult> {
  const ids = await createSessions(server, dr, n);
  const streams = ids.map((id, i) => new Stream(`${server.wsUrl}/ws/ambient`, id, dr.serviceToken, audio.subarray((i * 7919 * FRAME_BYTES) % (audio.length / 2))));
  for (let i = 0; i < streams.length; i += 25) await Promise.all(streams.slice(i, i + 25).map((s) => s.open()));
  // Staggered starts, as real clients are: not every frame of every stream on the same tick.
  for (const s of streams) {
    s.start();
    await new Promise((r) => setTimeout(r, FRAME_MS / Math.max(1, streams.length / 10)));
  }
  const warm = Math.min(5, STEP_SECONDS / 4);
  await new Promise((r) => setTimeout(r, warm * 1000));
  const before = procStats(server.proc.pid!);
  const t = performance.now();
  for (const s of streams) s.measuring = true;
  await new Promise((r) => setTimeout(r, (STEP_SECONDS - warm) * 1000));
  const after = procStats(server.proc.pid!);
  const elapsed = (performance.now() - t) / 1000;
  for (const s of streams) s.measuring = false;
  const lat = streams.flatMap((s) => s.latencies);
  const lags = streams.map((s) => s.audioSentMs - s.transcriptMs);
  for (const s of streams) s.stop();
  const cpuPercent = ((after.cpuTicks - before.cpuTicks) / TICKS_PER_SECOND / elapsed) * 100;
  const r: StepResult = {
    n,
    p50: Math.round(pct(lat, 50)),
    p99: Math.round(pct(lat, 99)),
    cpuPercent: Math.round(cpuPercent),
    cpuPerStream: Number((cpuPercent / n).toFixed(2)),
    rssMb: Math.round(after.rssBytes / 2 ** 20),
    memPerStreamKb: 0,
    closedEarly: streams.filter((s) => s.closedEarly).length,
    ...(speech ? { transcriptLagP50: Math.round(pct(lags, 50)), transcriptLagP95: Math.round(pct(lags, 95)) } : {}),
  };
  await new Promise((r) => setTimeout(r, 3000));
  return r;
}

async function phase(label: string, env: Record<string, string>, steps: number[], audio: Buffer, speech: boolean): Promise<StepResult[]> {
  // 32 libuv threads, as `npm start` runs the server.
  // Every stream comes from one provider here, so the per-provider and per-partner caps are lifted.
  const server = await startServer({ env: { LOG_LEVEL: 'warn', UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '32', STREAMS_PER_PROVIDER: '0', STREAMS_PER_PARTNER: '0', ...env } });
  const results: StepResult[] = [];
  try {
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    await new Promise((r) => setTimeout(r, 2000));
    const baselineRss = procStats(server.proc.pid!).rssBytes;
    console.log(`\n${label}: baseline RSS ${Math.round(baselineRss / 2 ** 20)} MB`);
    for (const n of steps) {
      const r = await step(server, dr, n, audio, baselineRss, speech);
      // RSS moves with the GC; the slope between steps is the steadier per-stream figure.
      const first = results[0];
      r.memPerStreamKb = Math.round(first ? (r.rssMb - first.rssMb) * 1024 / (n - first.n) : ((r.rssMb * 2 ** 20 - baselineRss) / 1024 / n));
      results.push(r);
      console.log(
        `  N=${String(n).padStart(4)}  ACK p50 ${r.p50} ms  p99 ${r.p99} ms  server CPU ${r.cpuPercent}% (${r.cpuPerStream}%/stream)  RSS ${r.rssMb} MB (${r.memPerStreamKb} KB/stream)` +
          `${r.closedEarly ? `  closed early: ${r.closedEarly}` : ''}${speech ? `  transcript lag p50 ${r.transcriptLagP50} ms p95 ${r.transcriptLagP95} ms` : ''}`,
      );
      const keepsUp = r.p99 <= KNEE_MS && r.closedEarly === 0 && (!speech || r.transcriptLagP95! <= 5000);
      if (!keepsUp) break;
    }
  } finally {
    await server.stop();
  }
  return results;
}

async function main(): Promise<void> {
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${STEP_SECONDS} s per step`);
  const audio = visitAudio(120, loadDialogues());
  const steps = [50, 100, 200, 300, 400, 500, 600, 800, 1000].filter((n) => n <= MAX_N);
  const off = await phase('speech engine off (SPEECH_ENGINE=none)', { SPEECH_ENGINE: 'none' }, steps, audio, false);
  const okOff = off.filter((r) => r.p99 <= KNEE_MS && r.closedEarly === 0);
  const bestOff = okOff.at(-1)?.n ?? 0;
  console.log(`largest N with ACK p99 ≤ ${KNEE_MS} ms: ${bestOff}${okOff.length === off.length ? ' (no knee reached up to --max)' : ''}`);
  let bestOn: number | undefined;
  let on: StepResult[] = [];
  if (!process.argv.includes('--no-speech')) {
    const speechSteps = [2, 4, 6, 8, 10, 12, 16, 20, 24, 32, 40].filter((n) => n <= SPEECH_MAX);
    on = await phase('embedded speech engine on (live transcription)', {}, speechSteps, audio, true);
    bestOn = on.filter((r) => r.p99 <= KNEE_MS && r.closedEarly === 0 && r.transcriptLagP95! <= 5000).at(-1)?.n ?? 0;
    console.log(`live-transcribed streams one process holds (ACK p99 ≤ ${KNEE_MS} ms, transcript lag p95 ≤ 5 s): ${bestOn}`);
  }
  console.log(JSON.stringify({ bench: 'streams', speechOff: off, largestN: bestOff, speechOn: on, liveTranscribed: bestOn }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
