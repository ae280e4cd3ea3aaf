import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SPEECH_STAGES, stageCpuSeconds, threadCpuNs } from '../engines/speech/stage-cpu';

/**
 * Prometheus metrics for one process, built once by server/services.ts. The registry lives in ctx.services,
 * not in a module variable: Next bundles a second copy of server modules for route handlers, and both copies
 * must count into one registry. Recording helpers never throw, so instrumentation cannot fail the work it observes.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'route' | 'method' | 'status'>;
  httpDuration: Histogram<'route' | 'method'>;
  jobs: Counter<'queue' | 'outcome'>;
  jobDuration: Histogram<'queue'>;
  webhookAttempts: Counter<'event_type' | 'outcome'>;
  webhookFailures: Counter<'event_type'>;
  pipelineStage: Histogram<'stage'>;
  wsConnections: Counter<'path' | 'outcome'>;
}

/** What the recorders below read the metrics from: the context, or anything holding them as it does. */
export interface HasMetrics {
  services: { metrics: Metrics };
}

/** `activeStreams` is read when /metrics is scraped (the realtime hub's open streams). */
export function createMetrics(activeStreams: () => number): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const m: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route template and method',
      labelNames: ['route', 'method'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'Background jobs run by this process, by queue and outcome (completed, retry, failed)',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Background job run time by queue',
      labelNames: ['queue'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by event type and outcome (delivered, retry, failed)',
      labelNames: ['event_type', 'outcome'],
      registers: [registry],
    }),
    webhookFailures: new Counter({
      name: 'webhook_failures_total',
      help: 'Webhook attempts that did not deliver (retryable or final)',
      labelNames: ['event_type'],
      registers: [registry],
    }),
    pipelineStage: new Histogram({
      name: 'pipeline_stage_duration_seconds',
      help: 'Session finalisation stage durations (transcribe, notes, structured data, total …)',
      labelNames: ['stage'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60, 120],
      registers: [registry],
    }),
    wsConnections: new Counter({
      name: 'ws_connections_total',
      help: 'WebSocket upgrades by path and outcome',
      labelNames: ['path', 'outcome'],
      registers: [registry],
    }),
  };
  new Gauge({
    name: 'ambient_active_streams',
    help: 'Real-time audio streams open in this process',
    registers: [registry],
    collect() {
      this.set(activeStreams());
    },
  });
  registerSpeechCpu(registry);
  return m;
}

/**
 * The speech engine's CPU by stage (stage-cpu.ts) and the event loop's own, read when /metrics is scraped,
 * so bench:load can tell decoding from VAD, partials, speaker roles and the rest (issue 30 item 1).
 */
function registerSpeechCpu(registry: Registry): void {
  const reported = new Map<string, number>();
  new Counter({
    name: 'speech_stage_cpu_seconds_total',
    help: 'Thread CPU spent by the speech engine per stage (live_decode, live_partial, live_vad, final_decode, final_vad, decoder_init, speaker_roles)',
    labelNames: ['stage'],
    registers: [registry],
    collect() {
      const now = stageCpuSeconds();
      for (const stage of SPEECH_STAGES) {
        const d = now[stage] - (reported.get(stage) ?? 0);
        if (d > 0) this.inc({ stage }, d);
        reported.set(stage, now[stage]);
      }
    },
  });
  let mainReported = 0;
  new Counter({
    name: 'event_loop_thread_cpu_seconds_total',
    help: 'CPU of the main (event-loop) thread alone; the process total is process_cpu_seconds_total',
    registers: [registry],
    collect() {
      const now = Number(threadCpuNs()) / 1e9;
      if (now > mainReported) this.inc(now - mainReported);
      mainReported = now;
    },
  });
}

export function getMetrics(app: HasMetrics): Metrics {
  return app.services.metrics;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    /* metrics must never break the request or job they describe */
  }
}

export function recordRequest(app: HasMetrics, route: string, method: string, status: number, seconds: number): void {
  safely(() => {
    const m = getMetrics(app);
    m.httpRequests.inc({ route, method, status: String(status) });
    m.httpDuration.observe({ route, method }, seconds);
  });
}

export type JobOutcome = 'completed' | 'retry' | 'failed';

export function recordJob(app: HasMetrics, queue: string, outcome: JobOutcome, seconds?: number): void {
  safely(() => {
    const m = getMetrics(app);
    m.jobs.inc({ queue, outcome });
    if (seconds !== undefined) m.jobDuration.observe({ queue }, seconds);
  });
}

export function recordWebhookAttempt(app: HasMetrics, eventType: string, outcome: string): void {
  safely(() => {
    const m = getMetrics(app);
    m.webhookAttempts.inc({ event_type: eventType, outcome });
    if (outcome !== 'delivered') m.webhookFailures.inc({ event_type: eventType });
  });
}

export function observeStage(app: HasMetrics, stage: string, seconds: number): void {
  safely(() => getMetrics(app).pipelineStage.observe({ stage }, seconds));
}

/** Times an async stage of the pipeline; the duration is recorded whether the stage succeeds or throws. */
export async function timeStage<T>(app: HasMetrics, stage: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    observeStage(app, stage, (performance.now() - started) / 1000);
  }
}

export function recordWsConnection(app: HasMetrics, path: string, outcome: string): void {
  safely(() => getMetrics(app).wsConnections.inc({ path, outcome }));
}
