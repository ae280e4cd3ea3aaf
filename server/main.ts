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
import './register-services';

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

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const requestId = typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    req.headers['x-request-id'] = requestId;
    // Rate limits key on the socket address; a client-supplied header must not choose the bucket.
    req.headers['x-real-ip'] = req.socket.remoteAddress ?? 'unknown';
    res.setHeader('x-request-id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const url = req.url ?? '/';
      log.info({ requestId, method: req.method, path: url.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    handle(req, res).catch((err: Error) => {
      log.error({ requestId, err: err.message }, 'request handler failed');
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ code: 500, message: 'internal server error' }));
      }
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  server.keepAliveTimeout = 65_000;
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

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Keep-alive sockets turn idle only once their in-flight request ends; sweep until all are gone.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const hard = setTimeout(() => server.closeAllConnections(), 15_000);
      server.once('close', () => {
        clearInterval(sweep);
        clearTimeout(hard);
      });
      server.closeIdleConnections();
    });
    await stopServices();
    await closeAppContext(ctx);
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
