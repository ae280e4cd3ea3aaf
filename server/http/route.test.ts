import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readJsonBody } from './body';
import { zodMessage } from './zod-message';
import { defineContract } from '@/lib/api/contract';
import { errorResponse, methodHandlers, bindRoute } from './route';

describe('readJsonBody', () => {
  const req = (body: BodyInit | null, headers: Record<string, string> = {}) => new Request('http://x/', { method: 'POST', body, headers });

  it('parses JSON and returns undefined for an empty body', async () => {
    expect(await readJsonBody(req('{"a":1}'), 100)).toEqual({ a: 1 });
    expect(await readJsonBody(req(null), 100)).toBeUndefined();
  });
  it('refuses bodies over the limit by header and by stream', async () => {
    await expect(readJsonBody(req('{}', { 'content-length': '1000' }), 10)).rejects.toMatchObject({ status: 413 });
    await expect(readJsonBody(req(JSON.stringify({ a: 'x'.repeat(50) })), 10)).rejects.toMatchObject({ status: 413 });
  });
  it('answers 400 for malformed JSON and invalid UTF-8', async () => {
    await expect(readJsonBody(req('{"a":'), 100)).rejects.toMatchObject({ status: 400, message: 'request body is not valid JSON' });
    await expect(readJsonBody(req(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])), 100)).rejects.toMatchObject({ status: 400, message: 'request body is not valid UTF-8' });
  });
});

describe('zodMessage', () => {
  const schema = z.object({ visit: z.object({ chief_complaint: z.string().max(5) }), items: z.array(z.object({ code: z.string() })) });
  it('names the nested field and array index', () => {
    const r = schema.safeParse({ visit: { chief_complaint: 'too long here' }, items: [] });
    expect(r.success).toBe(false);
    expect(zodMessage(r.error!, 'body')).toMatch(/^visit\.chief_complaint: /);
    const r2 = schema.safeParse({ visit: { chief_complaint: 'ok' }, items: [{ code: 1 }] });
    expect(zodMessage(r2.error!, 'body')).toMatch(/^items\[0\]\.code: /);
  });
  it('says a missing field is required and prefixes path and query parameters', () => {
    const r = z.object({ id: z.string() }).safeParse({});
    expect(zodMessage(r.error!, 'body')).toBe('id: is required');
    expect(zodMessage(r.error!, 'path parameter')).toBe('path parameter id: is required');
  });
});

describe('methodHandlers', () => {
  it('answers undefined methods with 405 and an Allow header', async () => {
    const def = bindRoute(defineContract({ method: 'GET', path: '/x', summary: 's', tags: [], auth: 'none', responses: { 200: { description: 'ok' } } }), () => undefined);
    const handlers = methodHandlers([def], () => undefined);
    const res = await handlers.POST(new Request('http://x/x', { method: 'POST' }), { params: Promise.resolve({}) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(await res.json()).toEqual({ code: 405, message: expect.stringContaining('GET') });
  });
  it('error bodies carry the request id', async () => {
    const res = errorResponse(404, 'nope', 'rid-1');
    expect(res.headers.get('x-request-id')).toBe('rid-1');
    expect(await res.json()).toEqual({ code: 404, message: 'nope' });
  });
});
