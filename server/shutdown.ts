import type { Logger } from './logger';

/**
 * Runs `stop` once on SIGTERM or SIGINT, then exits 0; exits 1 if stopping outlasts `forceMs`, so a hung
 * dependency cannot keep a process that was asked to stop alive.
 */
export function onShutdownSignal(log: Logger, opts: { forceMs: number; stop: () => Promise<void>; label?: string }): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const prefix = opts.label ? `${opts.label} ` : '';
    log.info({ signal }, `${prefix}shutting down`);
    const force = setTimeout(() => process.exit(1), opts.forceMs);
    force.unref();
    await opts.stop();
    log.info(`${prefix}stopped`);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
