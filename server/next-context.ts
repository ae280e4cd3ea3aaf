import type { AppContext } from './context';

/**
 * The one place the context crosses into Next's bundle. Next compiles its own copy of every server module it
 * serves (pages, server actions, next-auth's routes, app/api/app/token), so a module variable set by the
 * custom server is not seen by that copy; the only thing both copies share is the process. server/main.ts
 * hands the context it built to Next here, once, before Next prepares; the code Next serves reads it back
 * with contextForNext(). Nothing on the custom server's side reads it: the dispatcher, streams and jobs are
 * given the context by main.ts and worker.ts.
 */
const KEY = Symbol.for('ambient.context-for-next');
type Holder = { [KEY]?: AppContext };

export function handContextToNext(ctx: AppContext | undefined): void {
  (globalThis as Holder)[KEY] = ctx;
}

/** The context main.ts handed over, or undefined before start-up and after shutdown. */
export function contextForNextIfReady(): AppContext | undefined {
  return (globalThis as Holder)[KEY];
}

export function contextForNext(): AppContext {
  const ctx = contextForNextIfReady();
  if (!ctx) throw new Error('the application context is not initialised; start the service with server/main.ts');
  return ctx;
}
