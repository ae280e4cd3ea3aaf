import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context';
import { dispatchDirect, type DirectRoute } from './node-dispatch';

const CHUNKS = 200;
const CHUNK = new Uint8Array(64 * 1024).fill(7);

function streamingRoute(): DirectRoute {
  const body = () => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ < CHUNKS) c.enqueue(CHUNK);
        else c.close();
      },
    });
  };
  const GET = async () => new Response(body(), { status: 200, headers: { 'content-type': 'application/octet-stream' } });
  return { template: '/t', params: {}, defs: {}, handlers: { GET } as unknown as DirectRoute['handlers'] };
}

let server: http.Server | null = null;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('dispatchDirect streaming a long body', () => {
  it('waits for a slow reader without piling listeners on the response', async () => {
    const seen: number[] = [];
    server = http.createServer((req, res) => {
      void dispatchDirect({} as AppContext, streamingRoute(), req, res, `http://127.0.0.1${req.url ?? '/'}`, 'req-1').then(() => seen.push(res.listenerCount('close'), res.listenerCount('drain')));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const received = await new Promise<number>((resolve, reject) => {
      http.get({ port, host: '127.0.0.1', path: '/t' }, (res) => {
        let n = 0;
        // A reader slower than the writer, so nearly every write waits for drain.
        res.on('data', (c: Buffer) => {
          n += c.length;
          res.pause();
          setTimeout(() => res.resume(), 0);
        });
        res.on('end', () => resolve(n));
        res.on('error', reject);
      });
    });
    expect(received).toBe(CHUNKS * CHUNK.length);
    await new Promise((r) => setTimeout(r, 20));
    // One close listener is the body reader's cancel; each wait for drain used to leave one more behind.
    expect(seen[0]).toBeLessThanOrEqual(3);
    expect(seen[1]).toBe(0);
  });
});
