import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { closeAppContext, createAppContext } from './bootstrap';
import { routeUpgrade } from './realtime/router';
import { startServices } from './services';
import { onShutdownSignal } from './shutdown';
import { ROUTES } from './api';
import { dispatchDirect, RouteMatcher } from './http/node-dispatch';
import { limitRequestBody, normaliseRequestTarget } from './http/request-guard';
import { httpServerOptions } from './http/server-options';
import { isLoopbackHost, metricsRefusal } from './http/metrics-access';
import { getMetrics, recordRequest } from './observability/metrics';
import './register-services';
import { runWithRequestId } from './observability/request-context';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function ensureBuilt(dir: string, log: ReturnType<typeof createLogger>): void {
  if (fs.existsSync(path.join(dir, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID'))) return;
  log.info('no production build found; running next build (first start only)');
  const result = spawnSync(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('next build failed');
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const dir = path.resolve(import.meta.dirname, '..');
  if (!config.dev) ensureBuilt(dir, log);

  const ctx = await createAppContext({ config, log, cliToken: true });
  const stopServices = await startServices(ctx, { workers: config.workers > 0 });

  const app = next({ dev: config.dev, dir, hostname: config.host, port: config.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // In dev Next recompiles route files on change, so dispatch stays with Next there.
  const matcher = config.dev ? null : new RouteMatcher(ROUTES);
  const metrics = getMetrics(ctx);

  // In-flight HTTP requests, counted so shutdown can wait for them and not for upgraded (WebSocket)
  // sockets, which the HTTP server also counts but only the realtime service can close.
  let inFlight = 0;
  const drained: Array<() => void> = [];
  const server = http.createServer(httpServerOptions(config), (req, res) => {
    inFlight++;
    res.once('close', () => {
      if (--inFlight === 0) for (const done of drained.splice(0)) done();
    });
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    runWithRequestId(requestId, () => serve(req, res, requestId));
  });
  const serve = (req: http.IncomingMessage, res: http.ServerResponse, requestId: string): void => {
    const started = process.hrtime.bigint();
    req.headers['x-request-id'] = requestId;
    // Rate limits key on the socket address; a client-supplied header must not choose the bucket.
    req.headers['x-real-ip'] = req.socket.remoteAddress ?? 'unknown';
    res.setHeader('x-request-id', requestId);
    if (!normaliseRequestTarget(req, res)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const direct = matcher?.match(pathname) ?? null;
    const routeLabel = direct ? direct.template : pathname === '/metrics' ? '/metrics' : pathname.startsWith('/_next/') ? '/_next/*' : 'next';
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      recordRequest(ctx, routeLabel, req.method ?? 'GET', res.statusCode, ms / 1000);
      log.info({ requestId, method: req.method, path: pathname, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    if (!limitRequestBody(req, res, config.bodyLimitBytes, { countStreamed: !direct })) return;
    if (pathname === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      const refusal = metricsRefusal(req, { token: config.metricsToken, host: config.host });
      if (refusal) {
        res.statusCode = refusal.status;
        res.setHeader('content-type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ code: refusal.status, message: refusal.message }));
        return;
      }
      metrics.registry.metrics().then(
        (text) => {
          res.setHeader('content-type', metrics.registry.contentType);
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        () => {
          res.statusCode = 500;
          res.end();
        },
      );
      return;
    }
    if (direct) {
      // A fixed origin: the Host header is client input and handlers build links from PUBLIC_BASE_URL anyway.
      void dispatchDirect(direct, req, res, `${config.publicBaseUrl}${url}`, requestId);
      return;
    }
    handle(req, res).catch((err: Error) => {
      log.error({ requestId, err: err.message }, 'request handler failed');
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ code: 500, message: 'internal server error' }));
      }
    });
  };
  // Node answers unparsable requests (oversized headers, bad request lines) with a bare status line; give
  // them the same {code, message} body as every other error.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: import('node:stream').Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message =
      status === 431 ? 'request headers are too large' : status === 408 ? 'request timed out' : 'malformed HTTP request';
    const body = JSON.stringify({ code: status, message });
    // Destroy once written: the server's sockets are half-open, so end() alone left a silent client's
    // connection open for as long as the client kept its side (issue #12).
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
  // Node treats an upgrade as a plain request while no 'upgrade' listener exists, so until Next added its
  // own (on its first request) a WebSocket handshake was answered 404. Other paths have nothing to upgrade to.
  server.on('upgrade', (_req: http.IncomingMessage, socket: import('node:stream').Duplex) => {
    if (server.listenerCount('upgrade') === 1) socket.destroy();
  });
  // Next adds its own upgrade listener after the first request (for dev HMR); /ws/* must reach ours alone.
  const emit = server.emit.bind(server);
  server.emit = ((event: string, ...args: unknown[]) => {
    if (event === 'upgrade') {
      const [req, socket, head] = args as [http.IncomingMessage, import('node:stream').Duplex, Buffer];
      if ((req.url ?? '/').startsWith('/ws/')) {
        routeUpgrade(ctx, req, socket, head);
        return true;
      }
    }
    return emit(event, ...args);
  }) as typeof server.emit;

  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  log.info({ port, host: config.host, database: ctx.database.kind, workers: config.workers }, `listening on http://${config.host}:${port}`);
  if (!config.metricsToken && !isLoopbackHost(config.host)) log.warn({ host: config.host }, '/metrics answers 403: HOST is not loopback and METRICS_TOKEN is not set');

  onShutdownSignal(log, {
    forceMs: 30_000,
    stop: async () => {
      const started = Date.now();
      server.close();
      // Keep-alive sockets turn idle only once their in-flight request ends; sweep until all are gone.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const hard = setTimeout(() => server.closeAllConnections(), 15_000);
      // Waiting for server.close() itself would also wait for open streams, which close only once the
      // realtime service stops below: the shutdown sat out the 15 s hard limit with any stream open.
      if (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
      clearTimeout(hard);
      log.info({ ms: Date.now() - started }, 'requests drained');
      await stopServices();
      clearInterval(sweep);
      server.closeAllConnections();
      await closeAppContext(ctx);
    },
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
