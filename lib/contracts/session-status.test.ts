import { describe, expect, it } from 'vitest';
import { canTransition, isTerminal, SESSION_STATUSES, SESSION_TRANSITIONS } from './session-status';

describe('session state machine', () => {
  it('follows created → ready → running → completed|skipped|failed', () => {
    expect(canTransition('created', 'ready')).toBe(true);
    expect(canTransition('ready', 'running')).toBe(true);
    for (const end of ['completed', 'skipped', 'failed'] as const) expect(canTransition('running', end)).toBe(true);
  });
  it('lets any non-terminal state abort, and nothing leave a terminal state', () => {
    for (const s of SESSION_STATUSES) {
      if (isTerminal(s)) expect(SESSION_TRANSITIONS[s]).toEqual([]);
      else expect(canTransition(s, 'aborted')).toBe(true);
    }
  });
  it('refuses skipping ahead or going back', () => {
    expect(canTransition('created', 'running')).toBe(false);
    expect(canTransition('created', 'completed')).toBe(false);
    expect(canTransition('running', 'ready')).toBe(false);
    expect(canTransition('ready', 'completed')).toBe(false);
  });
});
