/**
 * Concurrent visits per node (issue 18 item 5): at each step N visits, each ~51 s of synthesised speech
 * (each voice set in turn: Festival's voices made from recorded speech, then espeak-ng's formant voices, which
 * cost the recogniser more CPU per second; so the figures are printed per set), stream at real time over /ws/ambient to one server with the embedded speech engine and live
 * recognition on, then EOF; the figure is EOF → completed, heard on the session's status events. Prints per
 * step p50/p95/max, errors and the server's CPU per visit (all its threads, from /proc; by stage from its
 * /metrics, stage-cpu.ts: live decode, partials, VAD, final pass, speaker roles, the rest), and the knee: the
 * most concurrent visits with p95 ≤ 10 s. Loopback only; every step is bounded by --timeout after EOF.
 *
 *   npm run bench:load [-- --steps 4,8,12,16,20 --seconds 51 --timeout 300 --stop-after-miss --voices festival,espeak]
 */
import os from 'node:os';
import { startServer, type TestServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../server/test/partners';
import { loadDialogues, visitAudio, VOICE_SETS, type VoiceSet } from '../turnaround/synth';
import { loadLine, pct, procStats, TICKS_PER_SECOND } from '../lib/stats';
import { createSession, streamVisit, waitForTerminal } from '../lib/stream-visit';
import { cpuPerVisit, formatBreakdown, readServerCpu, type CpuBreakdown } from './stage-cpu';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
}
const STEPS = arg('steps', '4,8,12,16,20').split(',').map(Number);
const SECONDS = Number(arg('seconds', '51'));
const TIMEOUT_S = Number(arg('timeout', '300'));
const KNEE_P95_MS = 10_000;
const VOICES = arg('voices', 'festival,espeak').split(',') as VoiceSet[];
for (const v of VOICES) if (!VOICE_SETS.includes(v)) throw new Error(`--voices: ${v} is not one of ${VOICE_SETS.join(', ')}`);

interface Visit {
  status: string;
  eofToCompletedMs: number;
  liveLagAtEofMs: number;
  errors: string[];
}

interface Step {
  voices: VoiceSet;
  n: number;
  p50: number;
  p95: number;
  max: number;
  errors: number;
  notCompleted: number;
  liveLagP95: number;
  cpuSecondsPerVisit: number;
  cpuPercentWhileStreaming: number;
  /** From the server's /metrics (stage-cpu.ts). */
  cpuByStage: CpuBreakdown;
  loadBefore: number[];
  loadAfter: number[];
}

async function oneVisit(server: TestServer, dr: TestProvider, audio: Buffer): Promise<Visit> {
  const id = await createSession(server.baseUrl, dr);
  const v = await streamVisit(server.wsUrl, id, dr.serviceToken, audio);
  const status = await waitForTerminal(server.baseUrl, id, dr, TIMEOUT_S * 1000);
  const eofToCompletedMs = Math.round(performance.now() - v.eofAt);
  v.ws.close();
  return { status, eofToCompletedMs, liveLagAtEofMs: v.liveLagAtEofMs, errors: v.errors };
}

async function step(server: TestServer, dr: TestProvider, n: number, audios: Buffer[], voices: VoiceSet): Promise<Step> {
  const loadBefore = os.loadavg();
  const cpu0 = procStats(server.proc.pid!).cpuTicks;
  const metrics0 = await readServerCpu(server.baseUrl);
  const t0 = performance.now();
  // Starts spread over one second, as visits begin independently; each one's own audio.
  const visits = await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (i * 1000) / n));
      return oneVisit(server, dr, audios[i % audios.length]!).catch((err: Error) => ({ status: 'error', eofToCompletedMs: NaN, liveLagAtEofMs: NaN, errors: [err.message] }));
    }),
  );
  const cpuSeconds = (procStats(server.proc.pid!).cpuTicks - cpu0) / TICKS_PER_SECOND;
  const cpuByStage = cpuPerVisit(metrics0, await readServerCpu(server.baseUrl), n);
  const wall = (performance.now() - t0) / 1000;
  const done = visits.filter((v) => v.status === 'completed');
  const t = done.map((v) => v.eofToCompletedMs);
  const r: Step = {
    voices,
    n,
    p50: pct(t, 50),
    p95: pct(t, 95),
    max: Math.max(...t),
    errors: visits.reduce((a, v) => a + v.errors.length, 0),
    notCompleted: n - done.length,
    liveLagP95: pct(visits.map((v) => v.liveLagAtEofMs).filter(Number.isFinite), 95),
    cpuSecondsPerVisit: Number((cpuSeconds / n).toFixed(1)),
    cpuPercentWhileStreaming: Math.round((cpuSeconds / wall) * 100),
    cpuByStage,
    loadBefore,
    loadAfter: os.loadavg(),
  };
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `  ${voices} N=${String(n).padStart(2)}  EOF→completed p50 ${s(r.p50)}  p95 ${s(r.p95)}  max ${s(r.max)}  errors ${r.errors}  not completed ${r.notCompleted}` +
      `  live lag at EOF p95 ${s(r.liveLagP95)}  server CPU ${r.cpuSecondsPerVisit} s per visit (${r.cpuPercentWhileStreaming}% over the step)` +
      `  load ${loadBefore.map((l) => l.toFixed(1)).join(' ')} → ${r.loadAfter.map((l) => l.toFixed(1)).join(' ')}`,
  );
  console.log(`    ${formatBreakdown(cpuByStage)}`);
  const others = visits.filter((v) => v.status !== 'completed').map((v) => v.status);
  if (others.length) console.log(`    not completed: ${[...new Set(others)].map((st) => `${st} ×${others.filter((o) => o === st).length}`).join(', ')}`);
  for (const v of visits) for (const e of new Set(v.errors)) console.log(`    error: ${e}`);
  return r;
}

async function main(): Promise<void> {
  console.log(
    `machine: ${os.cpus().length} cores, Node ${process.version}, ${loadLine()}; ${SECONDS} s visits at real time, steps ${STEPS.join(',')}, voices ${VOICES.join(', ')}`,
  );
  const dialogues = loadDialogues();
  // One distinct visit per concurrent stream at the largest step, so no two decode identical audio.
  const audios = Object.fromEntries(
    VOICES.map((v) => [v, Array.from({ length: Math.max(...STEPS) }, (_, i) => visitAudio(SECONDS, dialogues, i, v))]),
  ) as Record<VoiceSet, Buffer[]>;
  const server = await startServer({
    // One provider stands for every clinician of the step, so the per-provider caps (streams, and status event streams:
    // 10 each by default, which made 2 of 12 visits 429) are lifted.
    env: { LOG_LEVEL: 'warn', UV_THREADPOOL_SIZE: '32', STREAMS_PER_PROVIDER: '0', STREAMS_PER_PARTNER: '0', SSE_STREAMS_PER_PROVIDER: '0' },
  });
  const steps: Step[] = [];
  try {
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    // A first short visit loads the decoders and notes engine, which every later step would otherwise pay once.
    await oneVisit(server, dr, audios[VOICES[0]!][0]!.subarray(0, 5 * 32_000));
    for (const voices of VOICES) {
      for (const n of STEPS) {
        const r = await step(server, dr, n, audios[voices], voices);
        steps.push(r);
        if (process.argv.includes('--stop-after-miss') && !(r.p95 <= KNEE_P95_MS && r.notCompleted === 0)) break;
        // The machine settles between steps, so a step does not inherit the last one's backlog.
        await new Promise((res) => setTimeout(res, 5000));
      }
    }
  } finally {
    await server.stop();
  }
  const knees = Object.fromEntries(
    VOICES.map((v) => [v, steps.filter((r) => r.voices === v && r.p95 <= KNEE_P95_MS && r.notCompleted === 0 && r.errors === 0).at(-1)?.n ?? 0]),
  );
  for (const v of VOICES) {
    console.log(`knee, ${v} voices (most concurrent visits with p95 EOF → completed ≤ ${KNEE_P95_MS / 1000} s, none failed): ${knees[v]} per ${os.cpus().length} cores`);
  }
  console.log(loadLine());
  console.log(JSON.stringify({ bench: 'load', seconds: SECONDS, knees, steps }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
