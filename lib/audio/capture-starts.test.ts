import { describe, expect, it } from 'vitest';
import { CaptureStarts, startTimeFrame } from './capture-starts';

describe('CaptureStarts (why capture starts a part of its own)', () => {
  it('gives a page that continues a visit PAGE_RELOADED, and every later start MICROPHONE_DISCONNECTED', () => {
    const continued = new CaptureStarts();
    expect(continued.started(true)).toBe('PAGE_RELOADED');
    expect(continued.started(true)).toBe('MICROPHONE_DISCONNECTED');
    const fresh = new CaptureStarts();
    expect(fresh.started(false)).toBeUndefined(); // the visit's first recording follows nothing
    expect(fresh.started(false)).toBe('MICROPHONE_DISCONNECTED');
  });

  it('sends the reason with START_TIME only when there is one (older servers drop the key unread)', () => {
    const at = Date.UTC(2026, 10, 28, 10, 42, 5);
    expect(startTimeFrame(at, 'PAUSED')).toEqual({ type: 'START_TIME', data: btoa('2026-11-28T10:42:05.000Z'), reason: 'PAUSED' });
    expect(startTimeFrame(at, null)).toEqual({ type: 'START_TIME', data: btoa('2026-11-28T10:42:05.000Z') });
  });
});
