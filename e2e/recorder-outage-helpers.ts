/**
 * What the recorder-outage tests share: the final transcript's words and where they lie, the page's recorder
 * figures, a WebSocket route that can hold frames back, and a network between the browser and a server of the
 * test's own that can go down (a TCP proxy: every connection through it dropped, new ones refused).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page, WebSocketRoute } from '@playwright/test';
import { CLOSE } from '../lib/contracts/stream-protocol';
import { freePort, startServer, type TestServer } from '../server/test/harness';
import { apiFromPage, expect, recorderFigure, test } from './fixtures';
import { provisionUsers } from './provision';
import { VISIT_WORDS } from './visit-audio';

interface Word {
  text: string;
  startMs: number;
  endMs: number;
  confidence: number;
}
type Dur = { hours: number; minutes: number; seconds: number; nanos: number };
const ms = (d: Dur) => ((d.hours * 60 + d.minutes) * 60 + d.seconds) * 1000 + d.nanos / 1e6;

/** The words of the final transcript, on the session timeline. */
export async function finalWords(page: Page, sessionId: string): Promise<Word[]> {
  const t = await apiFromPage<{ final_transcript: Array<{ words?: Array<{ text: string; start_offset: Dur; end_offset: Dur; confidence: number }> }> }>(
    page,
    `/api/v1/ambient/session/${sessionId}/transcript`,
  );
  return t.final_transcript.flatMap((e) => (e.words ?? []).map((w) => ({ text: w.text, startMs: ms(w.start_offset), endMs: ms(w.end_offset), confidence: w.confidence })));
}

/** How many lines the server's transcript of the visit holds so far. */
export async function transcriptLines(page: Page, sessionId: string): Promise<number> {
  return (await apiFromPage<{ final_transcript: unknown[] }>(page, `/api/v1/ambient/session/${sessionId}/transcript`)).final_transcript.length;
}

/** At least three words of the visit, recognised with confidence, lie wholly within [from, to] of the session. */
export function expectSaidWithin(words: Word[], label: string, from: number, to: number) {
  const said = words.filter((w) => w.startMs >= from && w.endMs <= to && w.confidence >= 0.5 && VISIT_WORDS.has(w.text.toLowerCase().replace(/[^a-z]/g, '')));
  const around = words.filter((w) => w.endMs >= from - 2_000 && w.startMs <= to + 2_000).map((w) => `${w.text}@${Math.round(w.startMs)}`);
  expect(said.length, `${label} (${Math.round(from)}–${Math.round(to)} ms): words there: ${around.join(' ')}`).toBeGreaterThanOrEqual(3);
}

/**
 * The recorder's sockets pass through the test. Playwright's offline mode does not reach WebSockets
 * (microsoft/playwright#4910), so while `offline` is set the test refuses them as a dead network would, and
 * drops the open ones; while `hold` is set the page's audio frames are not passed on (the server never gets
 * them, as when a network swallows them).
 */
export async function routeRecorder(page: Page) {
  const open = new Set<WebSocketRoute>();
  const net = {
    hold: false,
    offline: false,
    async setOffline(off: boolean) {
      net.offline = off;
      await page.context().setOffline(off);
      if (off) for (const ws of open) void ws.close({ code: CLOSE.DROPPED, reason: 'network down' }).catch(() => undefined);
    },
  };
  await page.routeWebSocket(/\/ws\/ambient$/, (ws) => {
    if (net.offline) {
      void ws.close({ code: CLOSE.DROPPED, reason: 'network down' }).catch(() => undefined);
      return;
    }
    const server = ws.connectToServer();
    open.add(ws);
    // 1005/1006/1015 only report a close; they cannot be sent, so a lost connection is passed on as 4000.
    const sendable = (code: number | undefined) => (code === undefined || code === 1005 || code === 1006 || code === 1015 ? CLOSE.DROPPED : code);
    ws.onClose((code, reason) => {
      open.delete(ws);
      void server.close({ code: sendable(code), reason }).catch(() => undefined);
    });
    server.onClose((code, reason) => {
      open.delete(ws);
      void ws.close({ code: sendable(code), reason }).catch(() => undefined);
    });
    ws.onMessage((m) => {
      if (net.hold && typeof m !== 'string') return;
      server.send(m);
    });
  });
  return net;
}

export async function newVisit(page: Page, complaint: string): Promise<string> {
  await page.goto('/visits/new');
  await page.getByRole('textbox', { name: 'Chief complaint' }).fill(complaint);
  await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

export const recorded = (page: Page) => recorderFigure(page, 'recordedMs');

export async function recordUntil(page: Page, ms: number) {
  await expect.poll(() => recorded(page), { timeout: ms + 60_000, intervals: [250] }).toBeGreaterThan(ms);
}

export async function shot(page: Page, name: string) {
  const file = path.join(test.info().outputDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

/**
 * What the page showed, once a second, and what it logged: kept with the test's results, so a failure shows
 * where the recorder stood (connection state, audio waiting) rather than only the assertion that timed out.
 */
export function watchPage(page: Page) {
  const lines: string[] = [];
  const t0 = Date.now();
  const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1).padStart(6)}s`;
  page.on('console', (m) => lines.push(`${stamp()} console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => lines.push(`${stamp()} pageerror: ${e.message}`));
  page.on('requestfailed', (r) => lines.push(`${stamp()} requestfailed: ${r.method()} ${new URL(r.url()).pathname} ${r.failure()?.errorText}`));
  const timer = setInterval(() => {
    void page
      .evaluate(() => {
        const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? '-';
        const d = document.documentElement.dataset;
        return `${text('connection-state')} | recorded ${d.recordedMs} acked ${d.ackedMs} unacked ${d.unackedMs} | ${text('connection-down')} | ${text('visit-status')}`;
      })
      .then((l) => lines.push(`${stamp()} ${l}`))
      .catch(() => undefined);
  }, 1_000);
  return {
    mark: (what: string) => lines.push(`${stamp()} ---- ${what}`),
    save() {
      clearInterval(timer);
      const file = path.join(test.info().outputDir, 'page-timeline.log');
      fs.writeFileSync(file, lines.join('\n'));
    },
  };
}

/**
 * The network between the browser and the server: a TCP proxy. Down, it drops every connection through it (the
 * recorder's socket closes at once, as when a laptop's Wi-Fi drops and the browser notices) and refuses new
 * ones. Chromium's offline emulation alone does not reach WebSockets (microsoft/playwright#4910), and a
 * WebSocket route relays every frame through the test process, which on a loaded machine is itself a slow
 * network; this one is a plain socket.
 */
export async function outageNetwork(targetPort: number) {
  const open = new Set<net.Socket>();
  let down = false;
  const proxy = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(targetPort, '127.0.0.1');
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    open.add(client).add(upstream);
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    setDown(d: boolean) {
      down = d;
      if (d) for (const s of open) s.destroy();
    },
    close() {
      for (const s of open) s.destroy();
      return new Promise((resolve) => proxy.close(resolve));
    },
  };
}

/**
 * A server of the test's own (stopping it disturbs no other test) and a browser context on it, through an
 * outage network when `network` is set; both servers' logs are kept with the test's results.
 */
export async function ownServer(browser: Browser, opts: { network?: boolean } = {}) {
  const port = await freePort();
  const network = opts.network ? await outageNetwork(port) : null;
  const env: Record<string, string> = network ? { PUBLIC_BASE_URL: network.url } : {};
  let earlierLogs = '';
  const own = {
    server: (await startServer({ port, env }).catch(async (err: unknown) => {
      await network?.close();
      throw err;
    })) as TestServer,
    network,
    context: null as unknown as BrowserContext,
    users: null as unknown as Awaited<ReturnType<typeof provisionUsers>>['users'],
    /** kill -9, then (after the caller's wait) a new process on the same port and data. */
    async kill() {
      await own.server.kill();
      earlierLogs += own.server.logs();
    },
    async restart() {
      own.server = await startServer({ port, dataDir: own.server.dataDir, env });
    },
    async close() {
      // Pages first (the recorder and its microphone stop), then the context, each bounded: a context whose page
      // still streamed was seen to hang its close, and once the browser itself was gone before the next test.
      const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 15_000))]);
      for (const p of own.context.pages()) await bounded(p.close());
      await bounded(own.context.close());
      fs.writeFileSync(path.join(test.info().outputDir, 'own-server.log'), earlierLogs + own.server.logs());
      await own.server.stop();
      await network?.close();
    },
  };
  own.context = await browser.newContext({ baseURL: network?.url ?? own.server.baseUrl, permissions: ['microphone'], viewport: { width: 1024, height: 800 } });
  own.users = (await provisionUsers(own.server.baseUrl)).users;
  return own;
}
