import type { AppContext } from './context';

/** A subsystem with a lifecycle (workers, realtime hub, blob store). Stopped in reverse start order. */
export interface Service {
  name: string;
  start(ctx: AppContext): Promise<void> | void;
  stop?(ctx: AppContext): Promise<void> | void;
}

export const SERVICES: Service[] = [];

export async function startServices(ctx: AppContext, opts: { workers: boolean }): Promise<() => Promise<void>> {
  const started: Service[] = [];
  for (const svc of SERVICES) {
    if (svc.name.startsWith('worker:') && !opts.workers) continue;
    await svc.start(ctx);
    started.push(svc);
  }
  return async () => {
    for (const svc of started.reverse()) {
      try {
        await svc.stop?.(ctx);
      } catch (err) {
        ctx.log.warn({ service: svc.name, err: (err as Error).message }, 'service stop failed');
      }
    }
  };
}
