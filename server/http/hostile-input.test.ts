import { describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import { readJsonBody } from './body';
import { findNul, jsonDepthExceeds, MAX_JSON_DEPTH } from './hostile-input';

const post = (text: string) => new Request('http://x/', { method: 'POST', body: text });

async function refusal(text: string): Promise<string> {
  const err = await readJsonBody(post(text), 1 << 20).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isApiError(err)) throw new Error('expected an ApiError');
  expect(err.status).toBe(400);
  return err.message;
}

describe('JSON depth cap', () => {
  it('counts nesting outside strings only', () => {
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds('['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ s: '[[[[{{{{"\\'.repeat(100) }))).toBe(false);
  });

  it('refuses 5,000 levels (issue #12: a CKG bundle and a form value nested this deep were 500s)', async () => {
    const deep = `{"bundle":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    expect(await refusal(deep)).toMatch(/more than 64 levels deep/);
  });
});

describe('NUL characters', () => {
  it('finds the first NUL in values and keys, naming the path', () => {
    expect(findNul({ a: 'ok', b: [1, { c: 'x\u0000' }] })).toBe('b[1].c');
    expect(findNul({ ['k\u0000']: 1 })).toBe('k\\0');
    expect(findNul('a\u0000')).toBe('');
    expect(findNul({ a: ['fine', 2, null, true] })).toBeNull();
  });

  it('refuses a body holding one with 400 naming the field', async () => {
    expect(await refusal(JSON.stringify({ partner_id: 'a\u0000b', partner_token: 't' }))).toBe('partner_id: must not contain NUL characters (\\u0000)');
    expect(await refusal(JSON.stringify({ context: { patient: { name: 'x\u0000' } } }))).toMatch(/^context\.patient\.name: /);
  });
});
