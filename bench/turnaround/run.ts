/**
 * Visit turnaround: synthesised ACI-BENCH visits (espeak-ng, two voices) streamed over /ws/ambient with
 * live transcription on, then EOF; the figure is the time from EOF to `completed`. Visits of 2, 5 and 10
 * minutes run concurrently; `--speed` streams faster than real time (the server is started with a
 * WS_MAX_AHEAD_MS that allows it), but the default is real time (a 10-minute visit takes 10 minutes; the visits run side by side).
 *
 *   npm run bench:turnaround [-- --speed 1 --visits 10,5,2,2]
 */
import os from 'node:os';
import WebSocket from 'ws';
import { AUTH_PROTOCOL, BYTES_PER_MS, EOF_FRAME } from '../../lib/contracts/stream-protocol';
import { startServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../server/test/partners';
import { loadDialogues, visitAudio } from './synth';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}
const SPEED = Number(arg('speed', '1'));
const VISITS = arg('visits', '10,5,2,2').split(',').map(Number);
const FRAME_MS = 100;
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;

// Nearest rank: with two values p50 is the lower, p95 the higher.
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)]!;

interface VisitResult {
  minutes: number;
  status: string;
  turnaroundMs: number;
  liveLagAtEofMs: number;
  audioMs: number;
}

async function runVisit(baseUrl: string, wsUrl: string, dr: TestProvider, minutes: number, audio: Buffer): Promise<VisitResult> {
  const created = await fetch(`${baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
  const { ambient_session_id: id } = (await created.json()) as { ambient_session_id: string };
  const ws = new WebSocket(`${wsUrl}/ws/ambient`, [AUTH_PROTOCOL, id, dr.serviceToken]);
  let transcriptMs = 0;
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as { type: string; end_offset_ms?: number; message?: string };
    if (f.type === 'TRANSCRIPT') transcriptMs = Math.max(transcriptMs, f.end_offset_ms ?? 0);
    if (f.type === 'ERROR') console.error(`  visit ${minutes} min: server error ${f.message}`);
  });
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from(new Date().toISOString()).toString('base64') }));
  const frames = Math.floor(audio.length / FRAME_BYTES);
  const t0 = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(frames, Math.floor(((performance.now() - t0) * SPEED) / FRAME_MS) + 1);
      while (sent < due) {
        ws.send(audio.subarray(sent * FRAME_BYTES, (sent + 1) * FRAME_BYTES));
        sent++;
      }
      if (sent >= frames) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  const liveLag = frames * FRAME_MS - transcriptMs;
  ws.send(JSON.stringify(EOF_FRAME));
  const eof = performance.now();
  let status = 'running';
  while (!['completed', 'skipped', 'failed', 'aborted'].includes(status)) {
    await new Promise((r) => setTimeout(r, 100));
    const r = await fetch(`${baseUrl}/api/v1/ambient/session/${id}/status`, { headers: dr.headers });
    status = ((await r.json()) as { status: string }).status;
    if (performance.now() - eof > 600_000) break;
  }
  const turnaroundMs = Math.round(performance.now() - eof);
  ws.close();
  return { minutes, status, turnaroundMs, liveLagAtEofMs: liveLag, audioMs: frames * FRAME_MS };
}

async function main(): Promise<void> {
  const dialogues = loadDialogues();
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`synthesising ${VISITS.join(', ')} minute visits (espeak-ng + sox, cached in tmp/bench-audio) …`);
  const audios = VISITS.map((m, i) => visitAudio(m * 60, dialogues, i * 3));
  const server = await startServer({
    env: { LOG_LEVEL: 'warn', UV_THREADPOOL_SIZE: '32', WS_MAX_AHEAD_MS: String(Math.max(30_000, Math.max(...VISITS) * 60_000)), STREAMS_PER_PROVIDER: String(VISITS.length) },
  });
  try {
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    console.log(`streaming ${VISITS.length} visits concurrently at ${SPEED}× real time with live transcription …`);
    const results = await Promise.all(VISITS.map((m, i) => runVisit(server.baseUrl, server.wsUrl, dr, m, audios[i]!)));
    for (const m of [...new Set(VISITS)].sort((a, b) => a - b)) {
      const rs = results.filter((r) => r.minutes === m);
      const t = rs.map((r) => r.turnaroundMs);
      console.log(
        `  ${String(m).padStart(2)}-minute visits (${rs.length}): EOF → completed p50 ${(pct(t, 50) / 1000).toFixed(2)} s, p95 ${(pct(t, 95) / 1000).toFixed(2)} s; ` +
          `statuses ${rs.map((r) => r.status).join(',')}; live transcript behind by ${rs.map((r) => `${(r.liveLagAtEofMs / 1000).toFixed(1)} s`).join(', ')} at EOF`,
      );
    }
    console.log(JSON.stringify({ bench: 'turnaround', speed: SPEED, results }));
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
