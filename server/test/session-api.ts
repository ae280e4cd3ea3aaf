/** Calls to the session API for integration tests: any method, JSON in, parsed JSON (or text) out. */
import { expect } from 'vitest';
import type { TestServer } from './harness';
import type { TestProvider } from './partners';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const sessionPath = (id: string) => `/api/v1/ambient/session/${id}`;

export async function call(server: TestServer, who: TestProvider | Record<string, string>, method: string, p: string, body?: unknown) {
  const headers = 'headers' in who ? (who as TestProvider).headers : (who as Record<string, string>);
  const res = await fetch(`${server.baseUrl}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, text, headers: res.headers };
}

export async function createSession(server: TestServer, who: TestProvider, body: unknown = {}) {
  const r = await call(server, who, 'POST', '/api/v1/ambient/session/create', body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { ambient_session_id: string; note_id: string; encounter_id: string };
}

/**
 * Polls the session's status until it is one of `wanted`, and answers it. The bound is for a wedged
 * pipeline, not a speed check: on two cores shared with other suites one finalisation took minutes.
 */
export async function waitForSessionStatus(server: TestServer, who: TestProvider, id: string, wanted: readonly string[], timeoutMs = 480_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call(server, who, 'GET', `${sessionPath(id)}/status`);
    if (wanted.includes(r.body?.status)) return r.body.status;
    if (Date.now() > deadline) throw new Error(`session ${id} is still ${r.body?.status ?? r.status}`);
    await new Promise((res) => setTimeout(res, 300));
  }
}
