import { describe, expect, it } from 'vitest';
import { loadConfig as load } from '../../config';

// Only the variables under test: the rest of the configuration is at its defaults.
const loadConfig = (env: Record<string, string | undefined>) => load({ NODE_ENV: 'test', ...env });

describe('ABANDONED_AFTER and ABANDONED_SWEEP_INTERVAL', () => {
  const after = (v: string | undefined) => loadConfig({ ABANDONED_AFTER: v }).abandoned.afterMs;

  it('default to 30 minutes and one minute', () => {
    expect(loadConfig({}).abandoned).toEqual({ afterMs: 30 * 60_000, sweepMs: 60_000 });
  });

  it('take a duration with a unit, or plain seconds', () => {
    expect([after('45m'), after('90s'), after('2h'), after('500ms'), after('120'), after('1.5s')]).toEqual([2_700_000, 90_000, 7_200_000, 500, 120_000, 1_500]);
    expect(loadConfig({ ABANDONED_SWEEP_INTERVAL: '250ms' }).abandoned.sweepMs).toBe(250);
  });

  it('keep the default when empty, and stop start-up on a value that is not a positive duration', () => {
    expect(after('')).toBe(30 * 60_000);
    for (const v of ['0', '-5m', '30 minutes', 'soon', '5d']) {
      expect(() => after(v), v).toThrow(`ABANDONED_AFTER must be a positive duration such as 90s, 30m, 2h or 500ms (a bare number is seconds) (got "${v}")`);
    }
  });
});
