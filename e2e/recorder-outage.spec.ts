/**
 * The recorder never loses a word to the network (issue 25), in Debian's Chromium with the fake microphone
 * playing a visit of Festival voices: a reload while audio is unsent, and "End visit" pressed offline. The test
 * ends the visit and checks the FINAL transcript (the finalisation pass over the stored audio) for words of
 * the visit said before, during and after each outage, placed by the recorder's own timeline.
 * The server-killed and 30 s offline scenarios are not here yet: the backlog after them did not drain in
 * clean-clone runs on a loaded machine (issue 25 stays open for it).
 */
import path from 'node:path';
import type { Page, WebSocketRoute } from '@playwright/test';
import { CLOSE } from '../lib/contracts/stream-protocol';
import { apiFromPage, expect, loginAs, recorderFigure, test } from './fixtures';
import { ensureVisitWav, visitMicrophoneArgs, VISIT_WORDS } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

interface Word {
  text: string;
  startMs: number;
  endMs: number;
  confidence: number;
}
type Dur = { hours: number; minutes: number; seconds: number; nanos: number };
const ms = (d: Dur) => ((d.hours * 60 + d.minutes) * 60 + d.seconds) * 1000 + d.nanos / 1e6;

/** The words of the final transcript, on the session timeline. */
async function finalWords(page: Page, sessionId: string): Promise<Word[]> {
  const t = await apiFromPage<{ final_transcript: Array<{ words?: Array<{ text: string; start_offset: Dur; end_offset: Dur; confidence: number }> }> }>(
    page,
    `/api/v1/ambient/session/${sessionId}/transcript`,
  );
  return t.final_transcript.flatMap((e) => (e.words ?? []).map((w) => ({ text: w.text, startMs: ms(w.start_offset), endMs: ms(w.end_offset), confidence: w.confidence })));
}

/** At least three words of the visit, recognised with confidence, lie wholly within [from, to] of the session. */
function expectSaidWithin(words: Word[], label: string, from: number, to: number) {
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
async function routeRecorder(page: Page) {
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

async function newVisit(page: Page, complaint: string): Promise<string> {
  await page.goto('/visits/new');
  await page.getByRole('textbox', { name: 'Chief complaint' }).fill(complaint);
  await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

const recorded = (page: Page) => recorderFigure(page, 'recordedMs');

async function recordUntil(page: Page, ms: number) {
  await expect.poll(() => recorded(page), { timeout: ms + 60_000, intervals: [250] }).toBeGreaterThan(ms);
}

async function shot(page: Page, name: string) {
  const file = path.join(test.info().outputDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

test.describe('recorder through outages', () => {
  test('a reload while audio is unsent resends it first, and an End pressed offline finishes when the network returns', async ({ page, state }) => {
    test.setTimeout(600_000);
    // Frames held back while `net.hold` is set never reach the server, so the recorder has unsent audio to
    // keep across the reload.
    const net = await routeRecorder(page);
    // The recorder asks before the page is left while it records; this user confirms.
    page.on('dialog', (d) => void d.accept());
    await loginAs(page, state.users.clinician, '/visits');
    const sessionId = await newVisit(page, 'Reload during the visit');
    const connection = page.getByTestId('connection-state');
    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(connection).toHaveText(/Connected/);
    await recordUntil(page, 8_000);

    // ---- audio the server never gets, then a reload ----
    net.hold = true;
    await expect.poll(() => recorderFigure(page, 'unackedMs'), { timeout: 120_000 }).toBeGreaterThan(6_000);
    const heldFrom = await recorderFigure(page, 'ackedMs');
    net.hold = false;
    const reloadedAt = await recorded(page);
    await page.reload();
    const kept = page.getByTestId('kept-audio');
    await expect(kept).toContainText('before the page was reloaded');
    await expect(kept).toContainText('are now on the server', { timeout: 240_000 });
    await shot(page, 'kept-audio-resent');
    // The reloaded page continues the same capture: its timeline starts where the old page's ended.
    expect(await recorded(page)).toBeGreaterThanOrEqual(reloadedAt - 1_000);
    const resumedAt = await recorded(page);
    await page.getByRole('button', { name: 'Continue recording' }).click();
    await expect(connection).toHaveText(/Connected/);

    // ---- offline, then "End visit" ----
    await recordUntil(page, resumedAt + 8_000);
    const offlineAt = await recorded(page);
    await net.setOffline(true);
    await expect(connection).toHaveText(/Offline/);
    await expect.poll(() => recorderFigure(page, 'unackedMs'), { timeout: 120_000 }).toBeGreaterThan(7_000);
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('finishing')).toContainText('will finish when the connection returns');
    const endedAt = await recorded(page);
    await shot(page, 'end-queued-offline');
    await net.setOffline(false);
    await expect(page.getByTestId('visit-status')).toHaveText(/Processing|Note ready/, { timeout: 240_000 });
    await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: 300_000 });

    // Capture stopped at the End: the server holds what was recorded up to it, once, and no more.
    const day = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    const list = await apiFromPage<{ sessions: Array<{ ambient_session_id: string; audio_ms: number }> }>(
      page,
      `/api/v1/ambient/sessions?date=${day}&utc_offset_minutes=${-new Date().getTimezoneOffset()}`,
    );
    const row = list.sessions.find((s) => s.ambient_session_id === sessionId)!;
    // Millisecond rounding per recording and the 1 ms probe of each reconnect are the only slack.
    expect(row.audio_ms, `server ${row.audio_ms} ms vs recorded ${endedAt} ms`).toBeGreaterThanOrEqual(Math.floor(endedAt) - 5);
    expect(row.audio_ms, `server ${row.audio_ms} ms vs recorded ${endedAt} ms`).toBeLessThanOrEqual(Math.ceil(endedAt) + 10);

    const words = await finalWords(page, sessionId);
    expectSaidWithin(words, 'before the reload, sent', 0, heldFrom - 500);
    expectSaidWithin(words, 'before the reload, unsent until the reloaded page resent it', heldFrom + 500, reloadedAt - 500);
    expectSaidWithin(words, 'after the reload', resumedAt + 500, offlineAt - 500);
    expectSaidWithin(words, 'offline, before the End', offlineAt + 500, endedAt - 200);
  });
});
