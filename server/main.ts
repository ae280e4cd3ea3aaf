import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { loadConfig } from './config';
import { createLogger, createRequestLogger } from './logger';
import { closeSteps, createServices } from './services';
import { startWorkers, stopWorkers } from './jobs/workers';
import { closeStreams } from './realtime/close-streams';
import { routeUpgrade } from './realtime/router';
import { endStatusStreams, onShutdownSignal, runSteps } from './shutdown';
import { closeProviderStreams } from './domain/sessions/close-provider-streams';
import { ROUTES } from './api';
import { dispatchDirect, RouteMatcher } from './http/node-dispatch';
import { limitRequestBody, normaliseRequestTarget, refuseUndecodablePath } from './http/request-guard';
import { httpServerOptions } from './http/server-options';
import { isLoopbackHost } from './http/metrics-access';
import { recordRequest } from './observability/metrics';
import { runWithRequestId } from './observability/request-context';
import { clientAddressOf } from './http/client-address';
import { handContextToNext } from './next-context';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function ensureBuilt(dir: string, distDir: string, log: ReturnType<typeof createLogger>): void {
  if (fs.existsSync(path.join(dir, distDir, 'BUILD_ID'))) return;
  log.info('no production build found; running next build (first start only)');
  const result = spawnSync(process.execPath, [path.join(dir, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('next build failed');
}

/**
 * Start-up, in order: configuration; every service (createServices: database, pg-boss and its queues, keys,
 * code sets, status bus, metrics, realtime hub …); the job workers (WORKERS > 0); Next; the WebSocket routes;
 * then the listening socket, last, so nothing is accepted before everything it needs exists. Shutdown
 * (below) undoes it in the opposite order.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const requestLog = createRequestLogger(log);
  const dir = path.resolve(import.meta.dirname, '..');
  if (!config.dev) ensureBuilt(dir, config.nextDistDir, log);

  const ctx = await createServices(config, { log, cliToken: true });
  const workers = config.workers > 0 ? await startWorkers(ctx) : [];

  // Pages, server actions and next-auth run in Next's own bundle; they read the context from here.
  handContextToNext(ctx);
  const app = next({ dev: config.dev, dir, hostname: config.host, port: config.port });
  const handle = app.getRequestHandler();
  await app.prepare();
  // The one dispatcher for the API and /metrics, in dev too; Next serves pages and the routes it must own.
  const matcher = new RouteMatcher(ctx, ROUTES);

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
    // Rate limits key on the socket address, or behind a TRUSTED_PROXIES proxy on the hop it forwarded for;
    // a client-supplied header must not choose the bucket.
    req.headers['x-real-ip'] = clientAddressOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], config.trustedProxies);
    res.setHeader('x-request-id', requestId);
    if (!normaliseRequestTarget(req, res)) return;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q === -1 ? url : url.slice(0, q);
    const direct = matcher.match(pathname);
    const routeLabel = direct ? direct.template : pathname.startsWith('/_next/') ? '/_next/*' : 'next';
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      recordRequest(ctx, routeLabel, req.method ?? 'GET', res.statusCode, ms / 1000);
      requestLog.info({ requestId, method: req.method, path: pathname, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    if (!limitRequestBody(req, res, config.bodyLimitBytes, { countStreamed: !direct })) return;
    if (direct) {
      // A fixed origin: the Host header is client input and handlers build links from PUBLIC_BASE_URL anyway.
      void dispatchDirect(ctx, direct, req, res, `${config.publicBaseUrl}${url}`, requestId);
      return;
    }
    if (refuseUndecodablePath(pathname, res)) return;
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
  // Other web processes on the same PostgreSQL may disable a provider: end its streams open here too.
  const disabledSweep =
    ctx.database.kind === 'postgres' && config.sse.disabledSweepMs > 0
      ? setInterval(() => void closeProviderStreams(ctx).catch((err: Error) => log.warn({ err: err.message }, 'disabled-provider stream sweep failed')), config.sse.disabledSweepMs)
      : undefined;
  disabledSweep?.unref();

  // Shutdown, in order: stop accepting (no new connections or streams; requests in flight finish); close
  // the streams with 1001 once their audio is stored; stop the job workers; then the engines and blob store,
  // the status bus, pg-boss and the database (closeSteps). server.close() is not awaited: it would also wait
  // for the upgraded stream sockets, which only the second step closes.
  onShutdownSignal(log, {
    forceMs: 30_000,
    stop: async () => {
      let sweep: NodeJS.Timeout | undefined;
      await runSteps(log, [
        ['stop accepting', async () => {
          server.close();
          ctx.services.hub.stopping = true;
          clearInterval(disabledSweep);
          // Status event streams never end by themselves: without this the drain below waited 15 s for them.
          endStatusStreams(log, ctx.services.sse);
          // Keep-alive sockets turn idle only once their in-flight request ends; sweep until all are gone.
          server.closeIdleConnections();
          sweep = setInterval(() => server.closeIdleConnections(), 100);
          const hard = setTimeout(() => server.closeAllConnections(), 15_000);
          const started = Date.now();
          if (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
          clearTimeout(hard);
          log.info({ ms: Date.now() - started }, 'requests drained');
        }],
        ['close streams', () => closeStreams(ctx)],
        ['stop workers', () => stopWorkers(ctx, workers)],
        ['close connections', async () => {
          clearInterval(sweep);
          server.closeAllConnections();
          handContextToNext(undefined);
        }],
        ...closeSteps(ctx),
      ]);
    },
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
