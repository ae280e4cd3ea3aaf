export const SESSION_STATUSES = ['created', 'ready', 'running', 'completed', 'skipped', 'failed', 'aborted'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const TERMINAL_STATUSES: readonly SessionStatus[] = ['completed', 'skipped', 'failed', 'aborted'];

/** The whole state machine: created → ready → running → completed | skipped | failed; any non-terminal → aborted. */
export const SESSION_TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  created: ['ready', 'aborted'],
  ready: ['running', 'aborted'],
  running: ['completed', 'skipped', 'failed', 'aborted'],
  completed: [],
  skipped: [],
  failed: [],
  aborted: [],
};

/**
 * The reason recorded on the move to running (session_transitions) when the service, not the client, ended a
 * visit: no stream and no EOF for ABANDONED_AFTER (docs/streaming.md). Answered as the content's ended_reason.
 */
export const ABANDONED_REASON = 'abandoned';

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return SESSION_TRANSITIONS[from].includes(to);
}
