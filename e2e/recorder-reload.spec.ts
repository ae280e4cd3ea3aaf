/**
 * A reload with every frame already on the server (issue 25, from the browser trials of 3 Dec), in Debian's Chromium
 * with the fake microphone playing a visit of Festival voices: the reloaded page shows the visit so far (its lines and
 * its recorded time) and the visit can be ended without recording more.
 */
import { apiFromPage, expect, loginAs, recorderFigure, test } from './fixtures';
import { newVisit, recordUntil, transcriptLines } from './recorder-outage-helpers';
import { ensureVisitWav, visitMicrophoneArgs } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

test.describe('recorder after a reload', () => {
  test('a reload with every frame on the server: the visit can be ended without recording more, and its audio is kept', async ({ page, state }) => {
    test.setTimeout(300_000);
    page.on('dialog', (d) => void d.accept());
    await loginAs(page, state.users.clinician, '/visits');
    const sessionId = await newVisit(page, 'Reload, then end');
    // The visits list is by the day the visit was created: a run that crosses midnight must ask for that day, not today.
    const day = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(page.getByTestId('connection-state')).toHaveText(/Connected/);
    await recordUntil(page, 8_000);
    // Paused, so no frame is captured between the last acknowledgement and the reload.
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => recorderFigure(page, 'unackedMs'), { timeout: 60_000 }).toBe(0);
    const sentMs = await recorderFigure(page, 'ackedMs');
    await page.reload();
    await expect(page.getByTestId('recording-stopped')).toContainText('nothing said since then is recorded');
    await expect(page.getByTestId('kept-audio')).toHaveCount(0);
    // Every line the server has of the visit so far is on the reloaded page, not only the first.
    const pageLines = page.getByTestId('live-transcript').locator('li:not([aria-hidden="true"])');
    await expect.poll(async () => (await pageLines.count()) - (await transcriptLines(page, sessionId)), { timeout: 20_000 }).toBe(0);
    expect(await pageLines.count()).toBeGreaterThan(0);
    // The counter is the visit's recorded time, not this page's (the same trial saw 0:00 here).
    const [m, s] = (await page.getByTestId('elapsed').innerText()).split(':').map(Number);
    expect(m! * 60 + s!).toBeGreaterThanOrEqual(Math.floor(sentMs / 1000) - 1);
    // A browser trial (3 Dec) found only "Continue recording" here, and an upload form in the middle of the visit.
    await expect(page.getByRole('button', { name: 'Continue recording' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel visit' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Upload a recording' })).toHaveCount(0);
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: 240_000 });
    const list = await apiFromPage<{ sessions: Array<{ ambient_session_id: string; audio_ms: number }> }>(
      page,
      `/api/v1/ambient/sessions?date=${day}&utc_offset_minutes=${-new Date().getTimezoneOffset()}`,
    );
    expect(list.sessions.find((s) => s.ambient_session_id === sessionId)!.audio_ms).toBeGreaterThanOrEqual(Math.floor(sentMs) - 2);
    await expect(page.getByTestId('note-section').first()).toBeVisible();
  });
});
