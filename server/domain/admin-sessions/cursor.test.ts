import { describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import { decodeCursor, encodeCursor } from './cursor';

describe('list cursors', () => {
  it('round-trips the sort key of the last row', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const c = encodeCursor([at.toISOString(), '7f1c0c1e-0000-4000-8000-000000000001']);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    const [d, id] = decodeCursor(c, ['date', 'string'])!;
    expect((d as Date).toISOString()).toBe(at.toISOString());
    expect(id).toBe('7f1c0c1e-0000-4000-8000-000000000001');
    expect(decodeCursor(encodeCursor([42]), ['number'])).toEqual([42]);
    expect(decodeCursor(undefined, ['number'])).toBeNull();
  });

  it('refuses numbers no row id can have', () => {
    for (const n of [1e300, -1, 1.5]) expect(() => decodeCursor(encodeCursor([n]), ['number'])).toThrow(/cursor:/);
  });

  it('answers 400 naming the cursor for anything it did not issue', () => {
    for (const bad of ['not-base64-json', encodeCursor(['x']), encodeCursor([1, 2]), encodeCursor(['not a date', 'id']),
      // Issue #12: dates JavaScript parses but the database cannot hold, and ids it cannot compare.
      encodeCursor(['+275760-09-13T00:00:00.000Z', 'id']), encodeCursor(['200000-01-01', 'id']), encodeCursor(['Sat, 01 Jan 99999 00:00:00 GMT', 'id']),
      encodeCursor(['2026-01-02T03:04:05.678Z', 'a\u0000b'])]) {
      let err: unknown;
      try {
        decodeCursor(bad, bad === encodeCursor(['x']) ? ['number'] : ['date', 'string']);
      } catch (e) {
        err = e;
      }
      expect(isApiError(err) && err.status === 400 && err.message.startsWith('cursor:')).toBe(true);
    }
  });
});
