/** Session helpers for integration tests; calls go through the typed client (./api-client.ts). */
import { expect } from 'vitest';
import { createSession as createSessionRoute, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { testApi, type ApiReply, type CallArgs } from './api-client';
import type { RouteContract } from '@/lib/api/contract';
import type { TestServer } from './harness';
import type { TestProvider } from './partners';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A call through the typed client (./api-client.ts), as `who`, answered with status, parsed body, text and headers. */
export function call<C extends RouteContract>(server: TestServer, who: TestProvider | Record<string, string>, contract: C, ...input: CallArgs<C>): Promise<ApiReply<C>> {
  const headers = 'headers' in who ? (who as TestProvider).headers : (who as Record<string, string>);
  return testApi(server, headers).call(contract, ...input);
}

export async function createSession(server: TestServer, who: TestProvider, body: unknown = {}) {
  const r = await testApi(server, who).call(createSessionRoute, { body: body as never });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.data;
}

/**
 * Polls the session's status until it is one of `wanted`, and answers it. The bound is for a wedged
 * pipeline, not a speed check: on two cores shared with other suites one finalisation took minutes.
 */
export async function waitForSessionStatus(server: TestServer, who: TestProvider, id: string, wanted: readonly string[], timeoutMs = 480_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await testApi(server, who).call(getSessionStatus, { params: { ambient_session_id: id } });
    if (wanted.includes(r.body?.status)) return r.body.status;
    if (Date.now() > deadline) throw new Error(`session ${id} is still ${r.body?.status ?? r.status}`);
    await new Promise((res) => setTimeout(res, 300));
  }
}
