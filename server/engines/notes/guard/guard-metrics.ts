import { Counter, type Registry } from 'prom-client';
import type { GuardDecision } from './guard-note';

export interface GuardMetrics {
  record(engine: string, d: GuardDecision): void;
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]): Counter<L> {
  // One registry per process, but tests and scripts may build several engines on it.
  return (registry.getSingleMetric(name) as Counter<L> | undefined) ?? new Counter({ name, help, labelNames, registers: [registry] });
}

/** The guard's decisions on /metrics: notes checked by outcome, unsupported facts by kind, removals by kind. */
export function createGuardMetrics(registry: Registry): GuardMetrics {
  const notes = counter(registry, 'notes_guard_notes_total', 'Notes the faithfulness guard checked, by engine and outcome (clean, removed, flagged)', ['engine', 'outcome']);
  const facts = counter(registry, 'notes_guard_unsupported_facts_total', 'Unsupported facts the guard found in engine notes, by engine and fact kind', ['engine', 'kind']);
  const removed = counter(registry, 'notes_guard_removed_total', 'Items the guard removed from notes (listed in left_out), by engine and kind', ['engine', 'kind']);
  return {
    record(engine, d) {
      try {
        const changed = Object.values(d.removed).some((n) => (n ?? 0) > 0);
        notes.inc({ engine, outcome: changed ? 'removed' : d.unsupported ? 'flagged' : 'clean' });
        for (const [kind, n] of Object.entries(d.factKinds)) facts.inc({ engine, kind }, n ?? 0);
        for (const [kind, n] of Object.entries(d.removed)) removed.inc({ engine, kind }, n ?? 0);
      } catch {
        /* metrics must never fail the note they describe */
      }
    },
  };
}
