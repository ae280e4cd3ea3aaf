/**
 * Issue 26 item 7: a 413 on a route the direct dispatcher serves closed nothing. The answer said
 * `Connection: keep-alive` and the server went on reading and discarding the body (11.5 GB in 15 s to
 * POST /webhooks/notification, before any authentication). The server must answer 413 with
 * `Connection: close` and close the socket, so a client streaming without end gets cut off.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { testApi } from '../test/api-client';
import { receiveNotification } from '@/lib/contracts/routes/webhook-receiver';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { SPEECH_ENGINE: 'none' } });
}, 240_000);

afterAll(async () => {
  if (server?.proc.exitCode === null) await server.stop();
});

/**
 * Streams a chunked body without end until the server closes the connection, or until `cap` bytes are
 * written (a server that keeps reading). Resolves with the response head and body, whether the server
 * closed, and how many bytes the socket had accepted by then.
 */
function endlessChunkedPost(path: string, cap: number): Promise<{ head: string; body: string; closedByServer: boolean; written: number }> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port, '127.0.0.1');
    let data = '';
    let closedByServer = false;
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      const written = socket.bytesWritten;
      socket.destroy();
      const [head = '', ...rest] = data.split('\r\n\r\n');
      resolve({ head, body: rest.join('\r\n\r\n'), closedByServer, written });
    };
    socket.on('data', (d) => (data += d.toString('latin1')));
    // The server's FIN (end) or reset (error, close) both count as the server closing the connection.
    socket.on('end', () => {
      closedByServer = true;
      finish();
    });
    socket.on('error', () => {
      closedByServer = true;
      finish();
    });
    socket.on('close', () => {
      if (!settled) closedByServer = true;
      finish();
    });
    socket.write(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const pump = () => {
      while (!settled && !socket.destroyed) {
        if (socket.bytesWritten + socket.writableLength >= cap) return finish();
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

describe('a 413 from a direct route closes the connection (issue 26 item 7)', () => {
  it('answers an endless chunked body to POST /webhooks/notification with 413 and Connection: close, and stops reading', async () => {
    // The receiver's limit is 1 MiB; 256 MiB is far more than the socket buffers of both ends can hold.
    const cap = 256 * 1024 * 1024;
    const r = await endlessChunkedPost('/webhooks/notification', cap);
    expect(r.head).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(r.body)).toEqual({ code: 413, message: 'request body is larger than 1048576 bytes' });
    expect(r.head.toLowerCase()).toContain('connection: close');
    expect(r.closedByServer).toBe(true);
    expect(r.written).toBeLessThan(cap);
  }, 120_000);

  it('keeps the connection for the next request after a body within the limit', async () => {
    const res = await testApi(server.baseUrl, { 'content-type': 'application/json' }).send(receiveNotification, { body: {} });
    expect(res.headers.get('connection')).not.toBe('close');
    expect(((await res.json()) as { code: number }).code).toBe(res.status);
  });
});
