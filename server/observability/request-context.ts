import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request id of the work in progress, for log lines and for jobs a request enqueues. One storage per
 * process on globalThis: Next's bundled copy of this module must see the context main.ts opened.
 */
interface RequestScope {
  requestId: string;
}

const KEY = Symbol.for('ambient.request-context');
type Holder = { [KEY]?: AsyncLocalStorage<RequestScope> };

function storage(): AsyncLocalStorage<RequestScope> {
  const g = globalThis as Holder;
  return (g[KEY] ??= new AsyncLocalStorage<RequestScope>());
}

export function currentRequestId(): string | undefined {
  return storage().getStore()?.requestId;
}

/** Runs fn with requestId as the current request id; without one, fn runs in the caller's context. */
export function runWithRequestId<T>(requestId: string | undefined | null, fn: () => T): T {
  return requestId ? storage().run({ requestId }, fn) : fn();
}
