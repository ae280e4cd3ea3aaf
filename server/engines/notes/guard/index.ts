/** The faithfulness guard in front of every notes engine (issue 32 item 1). */
export { GuardedNotesEngine, type GuardOptions } from './guarded-engine';
export { guardNote, type GuardDecision } from './guard-note';
export { createGuardMetrics, type GuardMetrics } from './guard-metrics';
