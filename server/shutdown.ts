import { Worker } from 'node:worker_threads';
import type { Logger } from './logger';
import type { SseRegistry } from './status/sse-registry';

/** How long past forceMs the watchdog thread waits for the main thread's own forced exit. */
const WATCHDOG_GRACE_MS = 2_000;

/**
 * A second thread that kills the process if the main thread has not exited by then. The main thread's
 * own timer cannot fire while its event loop is blocked (a stuck synchronous call, a native decoder that
 * never returns), which is how a SIGTERM once logged "shutting down" and never exited (issue #12).
 * Atomics.wait sleeps without an event loop, so nothing in the main thread can hold it up. Unref'd: it
 * must never be what keeps a finished process alive.
 */
function startWatchdog(ms: number): Worker | null {
  try {
    const worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
       process.kill(workerData.pid, 'SIGKILL');`,
      { eval: true, workerData: { ms, pid: process.pid } },
    );
    worker.unref();
    worker.on('error', () => {});
    return worker;
  } catch {
    return null;
  }
}

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0. The exit is forced whatever `stop` does: after
 * `forceMs` the main thread exits 1 (a timer kept referenced, so a stop that waits on nothing still ends
 * in a failing exit rather than a silent one), and a watchdog thread SIGKILLs the process shortly after
 * if even that could not run. A second signal exits at once.
 */
export function onShutdownSignal(log: Logger, opts: { forceMs: number; stop: () => Promise<void>; label?: string }): void {
  let stopping = false;
  const prefix = opts.label ? `${opts.label} ` : '';
  const shutdown = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, `${prefix}second signal: exiting without finishing the shutdown`);
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, `${prefix}shutting down`);
    setTimeout(() => {
      log.error({ forceMs: opts.forceMs }, `${prefix}shutdown did not finish in time; forcing exit`);
      process.exit(1);
    }, opts.forceMs);
    startWatchdog(opts.forceMs + WATCHDOG_GRACE_MS);
    let stop: Promise<void>;
    try {
      stop = opts.stop();
    } catch (err) {
      stop = Promise.reject(err);
    }
    stop.then(
      () => {
        log.info(`${prefix}stopped`);
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err: (err as Error)?.message }, `${prefix}shutdown failed`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** One named step of a shutdown. */
export type Step = [name: string, run: () => Promise<unknown>];

/**
 * Runs shutdown steps one after another, in the order written. A failed step is logged and the next one
 * still runs: a worker that fails to stop must not leave the database open.
 */
export async function runSteps(log: Logger, steps: Step[]): Promise<void> {
  for (const [step, run] of steps) {
    const started = Date.now();
    try {
      await run();
      log.info({ step, ms: Date.now() - started }, 'shutdown step done');
    } catch (err) {
      log.warn({ step, err: (err as Error)?.message }, 'shutdown step failed');
    }
  }
}

/**
 * Shutdown, right after the server stops accepting: refuses new status event streams and ends the open ones
 * with a last `event: end` (reason `shutdown`, so clients reconnect to another process or after the restart).
 * They never end by themselves, so the drain of in-flight requests waited its full 15 s for them and then
 * cut them without an end (issue 26).
 */
export function endStatusStreams(log: Logger, sse: SseRegistry): void {
  sse.stopping = true;
  const ended = sse.endWhere(() => true, 'shutdown');
  if (ended > 0) log.info({ streams: ended }, 'status event streams ended');
}
