import { describe, expect, it } from 'vitest';
import { StatusCache } from './status-cache';

const owner = { providerId: 'prov', partnerId: 'part' };

describe('StatusCache', () => {
  it('a change heard is what the next read answers; an older change heard late does not step it back', () => {
    const c = new StatusCache(() => true);
    c.fill('s', { ...owner, status: 'created', seq: 1 }, c.mark());
    c.apply({ sessionId: 's', ...owner, status: 'running', seq: 3 });
    expect(c.get('s')?.status).toBe('running');
    c.apply({ sessionId: 's', ...owner, status: 'ready', seq: 2 });
    expect(c.get('s')?.status).toBe('running');
  });

  it('a database read that started before a change does not overwrite it', () => {
    const c = new StatusCache(() => true);
    const mark = c.mark();
    c.apply({ sessionId: 's', ...owner, status: 'completed', seq: 7 });
    c.fill('s', { ...owner, status: 'running', seq: 6 }, mark);
    expect(c.get('s')?.status).toBe('completed');
  });

  it('when changes may have been lost it empties, drops reads begun before, and answers nothing while the bus is down', () => {
    let live = true;
    const c = new StatusCache(() => live);
    c.apply({ sessionId: 's', ...owner, status: 'running', seq: 3 });
    const mark = c.mark();
    c.clear();
    c.fill('s', { ...owner, status: 'running', seq: 3 }, mark);
    expect(c.get('s')).toBeUndefined();
    live = false;
    c.fill('t', { ...owner, status: 'running', seq: 3 }, c.mark());
    c.apply({ sessionId: 'u', ...owner, status: 'running', seq: 4 });
    expect(c.get('t')).toBeUndefined();
    expect(c.get('u')).toBeUndefined();
    live = true;
    expect(c.get('u')).toBeUndefined();
  });
});
