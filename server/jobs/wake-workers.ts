import type PgBoss from 'pg-boss';

// The fetch loops of this process per queue, so a job queued here is fetched at once instead of at the next
// poll. Keyed by the boss instance: tests run several apps in one process, each with its own.
const loops = new WeakMap<PgBoss, Map<string, Set<string>>>();

/** Longer waits are left to the poll: a timer per far-off webhook retry would only pile up. */
const MAX_TIMER_MS = 10 * 60_000;

export function addWorkerLoop(boss: PgBoss, queue: string, workerId: string): void {
  let byQueue = loops.get(boss);
  if (!byQueue) loops.set(boss, (byQueue = new Map()));
  const ids = byQueue.get(queue) ?? new Set<string>();
  byQueue.set(queue, ids.add(workerId));
}

export function removeWorkerLoops(boss: PgBoss, queue: string): void {
  loops.get(boss)?.delete(queue);
}

/**
 * Interrupts the poll wait of every loop of `queue` in this process, now or once `afterMs` has passed (a
 * job that becomes due then). Every loop, not one: a loop busy with a job would only fetch when it is done.
 */
export function wakeWorkers(boss: PgBoss, queue: string, afterMs = 0): void {
  const wake = () => {
    for (const id of loops.get(boss)?.get(queue) ?? []) boss.notifyWorker(id);
  };
  if (afterMs <= 0) wake();
  else if (afterMs <= MAX_TIMER_MS) setTimeout(wake, afterMs).unref();
}
