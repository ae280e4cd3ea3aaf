/**
 * SSE flood (issue 26 item 1): one service token opens status event streams on one session as fast as it
 * can for `--duration` seconds, `--connections` at a time, each retrying `--retry-ms` after a refusal, while
 * a probe times GET /api/health every `--probe-ms`. Prints how many streams were let in and how many were
 * refused with 429, and /api/health latency percentiles before, during and after the flood, with the
 * server's RSS. The server runs with its default limits unless the environment sets SSE_* variables.
 *
 *   npm run bench:sse-flood [-- --duration 60 --connections 1000 --retry-ms 1000 --probe-ms 100 --after 10]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { startServer } from '../../server/test/harness';
import { createTestPartner, registerAndLogin } from '../../server/test/partners';
import { loadLine, pct, procStats } from '../lib/stats';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const duration = flag('duration', 60);
const connections = flag('connections', 1000);
const retryMs = flag('retry-ms', 1000);
const probeMs = flag('probe-ms', 100);
const afterS = flag('after', 10);
const beforeS = 5;

/**
 * The flooding client (plain CommonJS for node -e): `connections` loops, each opening a stream with the
 * token until one is let in (then holding it) or the flood ends, waiting retryMs after each refusal.
 * Prints its counts as one JSON line when the flood ends, and keeps its streams until it is killed.
 */
const FLOOD = `
const http = require('node:http');
const [url, token, connections, durationMs, retryMs] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const counts = { opened: 0, refused: 0, other: 0, errors: 0 };
const ends = Date.now() + Number(durationMs);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const open = () => new Promise((resolve) => {
  const req = http.get(url, { agent, headers: { sdp_service_token: token } }, (res) => {
    res.on('error', () => {});
    if (res.statusCode === 200) { counts.opened++; res.resume(); return resolve(true); }
    if (res.statusCode === 429) counts.refused++; else counts.other++;
    res.resume();
    res.on('end', () => resolve(false));
  });
  req.on('error', () => { counts.errors++; resolve(false); });
});
(async () => {
  await Promise.all(Array.from({ length: Number(connections) }, async () => {
    while (Date.now() < ends) {
      if (await open()) return;
      await sleep(Number(retryMs));
    }
  }));
  if (Date.now() < ends) await sleep(ends - Date.now());
  process.stdout.write(JSON.stringify(counts) + '\\n');
  setInterval(() => {}, 1 << 30);
})();
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One GET, timed from send to the end of the body; a failure counts as NaN. */
function timedGet(agent: http.Agent, url: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : NaN));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(NaN));
  });
}

function summary(xs: number[]): string {
  const ok = xs.filter((x) => !Number.isNaN(x));
  const failed = xs.length - ok.length;
  const f = (v: number) => `${v.toFixed(1)} ms`;
  return `p50 ${f(pct(ok, 50))}, p95 ${f(pct(ok, 95))}, p99 ${f(pct(ok, 99))}, max ${f(Math.max(...ok))} (${ok.length} probes${failed ? `, ${failed} FAILED` : ''})`;
}

async function main(): Promise<void> {
  const server = await startServer({ env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' } });
  // The server still logs a line per request; the harness's copy of them is not the server's cost.
  server.proc.stdout!.removeAllListeners('data').resume();
  const pid = server.proc.pid!;
  const probeAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let flooder: ChildProcess | undefined;
  try {
    const dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const created = await fetch(`${server.baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
    const { ambient_session_id: id } = (await created.json()) as { ambient_session_id: string };
    const eventsUrl = `${server.baseUrl}/api/v1/ambient/session/${id}/status/events`;
    const healthUrl = `${server.baseUrl}/api/health`;

    const phase: { name: 'before' | 'during' | 'after' } = { name: 'before' };
    const probes: Record<string, number[]> = { before: [], during: [], after: [] };
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const name = phase.name;
        probes[name]!.push(await timedGet(probeAgent, healthUrl));
        await sleep(probeMs);
      }
    })();

    const rss = { before: procStats(pid).rssBytes, peak: 0, after: 0 };
    await sleep(beforeS * 1000);
    console.log(`SSE flood: ${duration} s, ${connections} connections from one token, each retrying ${retryMs} ms after a refusal; ${os.cpus().length} CPUs, ${loadLine()}`);
    phase.name = 'during';
    // The flood runs in its own process, so the probe's timings are the server's, not this event loop's.
    flooder = spawn(process.execPath, ['-e', FLOOD, eventsUrl, dr.serviceToken, String(connections), String(duration * 1000), String(retryMs)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let floodOut = '';
    flooder.stdout!.on('data', (d) => (floodOut += d));
    const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, procStats(pid).rssBytes)), 1000);
    // It prints its counts at the end of the flood, still holding its streams, then waits to be told to go.
    while (!floodOut.includes('\n')) {
      if (flooder.exitCode !== null) throw new Error('the flooding client exited early');
      await sleep(200);
    }
    const counts = JSON.parse(floodOut) as { opened: number; refused: number; other: number; errors: number };
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    clearInterval(sampler);
    phase.name = 'after';
    flooder.kill('SIGKILL');
    await sleep(afterS * 1000);
    probing = false;
    await probe;
    rss.after = procStats(pid).rssBytes;

    const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
    const metric = (name: string) => metrics.split('\n').filter((l) => l.startsWith(name)).join('; ');
    const attempts = counts.opened + counts.refused + counts.other + counts.errors;
    console.log(`attempts ${attempts}: let in ${counts.opened}, refused 429 ${counts.refused}, other status ${counts.other}, connection errors ${counts.errors}`);
    console.log(`server at the end of the flood: ${metric('ambient_sse_streams ')}; ${metric('ambient_sse_refused_total')}`);
    console.log(`/api/health before (${beforeS} s): ${summary(probes.before!)}`);
    console.log(`/api/health during (${duration} s): ${summary(probes.during!)}`);
    console.log(`/api/health after (${afterS} s): ${summary(probes.after!)}`);
    console.log(`server RSS: before ${mb(rss.before)}, peak during ${mb(rss.peak)}, after ${mb(rss.after)}; ${loadLine()}`);
  } finally {
    flooder?.kill('SIGKILL');
    probeAgent.destroy();
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
