/**
 * Visit turnaround: synthesised ACI-BENCH visits (espeak-ng, two voices) streamed over /ws/ambient with
 * live transcription on, then EOF; the figure is the time from EOF to `completed`. Visits of 2, 5 and 10
 * minutes run concurrently; `--speed` streams faster than real time (the server is started with a
 * WS_MAX_AHEAD_MS that allows it), but the default is real time (a 10-minute visit takes 10 minutes; the visits run side by side).
 *
 *   npm run bench:turnaround [-- --speed 1 --visits 10,5,2,2]
 */
import os from 'node:os';
import { startServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../server/test/partners';
import { loadDialogues, visitAudio } from './synth';
import { pct } from '../lib/stats';
import { createSession, streamVisit, waitForTerminal } from '../lib/stream-visit';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}
const SPEED = Number(arg('speed', '1'));
const VISITS = arg('visits', '10,5,2,2').split(',').map(Number);

interface VisitResult {
  minutes: number;
  status: string;
  turnaroundMs: number;
  liveLagAtEofMs: number;
  audioMs: number;
}

async function runVisit(baseUrl: string, wsUrl: string, dr: TestProvider, minutes: number, audio: Buffer): Promise<VisitResult> {
  const id = await createSession(baseUrl, dr);
  const v = await streamVisit(wsUrl, id, dr.serviceToken, audio, SPEED);
  for (const e of v.errors) console.error(`  visit ${minutes} min: ${e}`);
  const status = await waitForTerminal(baseUrl, id, dr, 600_000);
  const turnaroundMs = Math.round(performance.now() - v.eofAt);
  v.ws.close();
  return { minutes, status, turnaroundMs, liveLagAtEofMs: v.liveLagAtEofMs, audioMs: v.audioMs };
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
