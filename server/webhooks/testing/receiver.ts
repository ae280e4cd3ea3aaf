import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test-only: a real HTTP receiver on 127.0.0.1 whose answer is scripted per path. */

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

export interface ScriptedAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** Called with how many requests this path has had, counting this one (1-based). */
export type Responder = (n: number, req: ReceivedRequest) => ScriptedAnswer;

export interface TestReceiver {
  port: number;
  url(path: string): string;
  requests: ReceivedRequest[];
  on(path: string, responder: Responder): void;
  /** Requests to a path so far. */
  to(path: string): ReceivedRequest[];
  /** Waits (bounded) until `count` requests reached the path; throws with what arrived otherwise. */
  waitFor(path: string, count: number, limitMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startTestReceiver(): Promise<TestReceiver> {
  const requests: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const entry: ReceivedRequest = { path, headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8') };
      requests.push(entry);
      const n = requests.filter((r) => r.path === path).length;
      const answer = responders.get(path)?.(n, entry) ?? { status: 200, body: '{"message":"ok"}' };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const to = (path: string) => requests.filter((r) => r.path === path);
  return {
    port,
    requests,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, responder) => void responders.set(path, responder),
    to,
    async waitFor(path, count, limitMs = 45_000) {
      const deadline = Date.now() + limitMs;
      while (to(path).length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests to ${path}, got ${to(path).length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return to(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
