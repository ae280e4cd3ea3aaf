/**
 * The clinician web app end to end, in Debian's Chromium with a fake microphone that plays a synthesised
 * visit (Festival's voices built from recorded speech, two speakers, 16 kHz mono): sign-in, new visit, recording with the
 * live transcript, a dropped connection that loses no audio, processing, the note, a rewrite, playback.
 */
import fs from 'node:fs';
import path from 'node:path';
import { devices, type Page, type WebSocketRoute } from '@playwright/test';
import { CLOSE } from '../lib/contracts/stream-protocol';
import { apiFromPage, expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, recorderFigure, test, type E2EState } from './fixtures';
import { ensureVisitWav, visitMicrophoneArgs, visitMs } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone', 'clipboard-read', 'clipboard-write'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: visitMicrophoneArgs(),
  },
});

function shot(name: string) {
  return path.join(test.info().outputDir, `${name}.png`);
}

async function attachShot(page: import('@playwright/test').Page, name: string) {
  const file = shot(name);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

test.describe('clinician app', () => {
  test('signs in and out, checks the role on every page, and needs a session', async ({ page, state }) => {
    await page.goto('/visits');
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fvisits/);
    await loginAs(page, state.users.clinician, '/visits');
    await expect(page.getByRole('heading', { name: "Today's visits" })).toBeVisible();
    await expect(page.getByTestId('signed-in-as')).toBeVisible();
    await expectAccessible(page, '/visits');
    await attachShot(page, 'visits-empty');

    // Keyboard shortcut help is documented in the UI.
    await page.keyboard.press('Shift+?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await expect(page.getByRole('dialog')).toContainText('Alt+W');
    await expectAccessible(page, 'shortcut help');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto('/visits/new');
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fvisits%2Fnew/);

    // Another role is refused server-side on each clinician page.
    await loginAs(page, state.users.partnerAdmin, '/visits');
    for (const p of ['/visits', '/visits/new', '/visits/00000000-0000-4000-8000-000000000000']) {
      await page.goto(p);
      await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
    }
    const token = await page.evaluate(async () => (await fetch('/api/app/token')).status);
    expect(token).toBe(403);
  });

  test('records a visit through a dropped connection and reviews, rewrites and plays the note', async ({ page, context, state }) => {
    test.setTimeout(NOTE_READY_BOUND_MS + 420_000);
    // The status stream (Server-Sent Events) is refused here, so this visit exercises the app's fallback to
    // polling; e2e/workflow.spec.ts follows a visit over the stream itself.
    await page.route('**/status/events', (route) => route.abort());
    // The recorder's sockets pass through the test unchanged, so the test can drop one the way a network
    // failure would; the app ships no hook for it.
    let ambientSocket: WebSocketRoute | null = null;
    await page.routeWebSocket(/\/ws\/ambient$/, (ws) => {
      ambientSocket = ws;
      ws.connectToServer();
    });
    await loginAs(page, state.users.clinician, '/visits');

    // ---- New visit: pickers from the info lists, validation with the API's contract ----
    await expect(page.getByText('Loading visits…')).toHaveCount(0); // hydrated, so the shortcut is live
    await page.keyboard.press('Alt+N');
    await expect(page).toHaveURL(/\/visits\/new$/);
    await expect(page.getByRole('combobox', { name: 'Visit type' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Visit type' }).locator('option')).not.toHaveCount(0);
    await page.getByRole('textbox', { name: 'Chief complaint' }).fill('Cough and fever for two weeks');
    await page.getByRole('textbox', { name: 'Reason for visit' }).fill('Persistent cough');
    await page.getByRole('combobox', { name: 'Visit type' }).selectOption('NEW_PATIENT');
    await page.getByRole('combobox', { name: 'Encounter type' }).selectOption('AMBULATORY');
    await page.getByRole('combobox', { name: 'Specialty' }).selectOption('FAMILY_MEDICINE');
    await page.getByRole('combobox', { name: 'Your role' }).selectOption('ATTENDING');
    await page.getByRole('combobox', { name: 'Sex' }).selectOption('female');
    await expect(page.getByRole('checkbox', { name: /History of present illness/ })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /Plan of care/ })).not.toBeChecked();
    await page.getByLabel('Date of birth', { exact: true }).fill('2999-01-01');
    await expectAccessible(page, '/visits/new');
    await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
    await expect(page.getByText('Must not be in the future')).toBeVisible();
    await page.getByLabel('Date of birth', { exact: true }).fill('1961-04-12');
    await attachShot(page, 'new-visit');
    await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
    await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
    const sessionId = page.url().split('/').pop()!;
    // The visits list is by the day the visit was created: a run that crosses midnight must ask for that day, not today.
    const day = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

    // ---- Recording ----
    await expect(page.getByRole('heading', { name: 'Recording', exact: true })).toBeVisible();
    await expectAccessible(page, 'recorder');
    await page.keyboard.press('Alt+R');
    await expect(page.getByTestId('connection-state')).toHaveText(/Connected/);
    // The microphone picker fills in once permission is granted.
    await expect(page.getByRole('combobox', { name: 'Microphone' }).locator('option')).not.toHaveCount(1);
    await expect(page.getByRole('meter', { name: 'Input level' })).not.toHaveAttribute('aria-valuenow', '0', { timeout: 30_000 });
    await expect(page.getByTestId('live-transcript').locator('li').first()).toBeVisible({ timeout: 90_000 });
    await attachShot(page, 'recording-live-transcript');

    // ---- Drop the connection, stay offline for a while, recover ----
    await context.setOffline(true);
    // The recorder drops its socket itself at the offline event; this closes it for a browser that would not.
    await (ambientSocket as WebSocketRoute | null)!.close({ code: CLOSE.DROPPED, reason: 'dropped by the test' }).catch(() => undefined);
    await expect(page.getByTestId('connection-state')).toHaveText(/Offline|Reconnecting/);
    // Several seconds of the visit are recorded with no connection at all.
    await expect.poll(() => recorderFigure(page, 'unackedMs'), { timeout: 20_000 }).toBeGreaterThan(4_000);
    await expect(page.getByTestId('unsent')).toBeVisible();
    await attachShot(page, 'recording-offline');
    await context.setOffline(false);
    await expect(page.getByTestId('connection-state')).toHaveText(/Connected/, { timeout: 30_000 });
    // Everything recorded while offline is confirmed by the server after the resend.
    await expect.poll(() => recorderFigure(page, 'unackedMs'), { timeout: 30_000 }).toBeLessThan(1000);

    // Pause and resume with the keyboard.
    await page.keyboard.press('Alt+P');
    await expect(page.getByText('Paused', { exact: true })).toBeVisible();
    await page.keyboard.press('Alt+P');
    await expect(page.getByText('Paused', { exact: true })).toHaveCount(0);
    // Record the whole synthesised visit once over, so the note has its content.
    await expect.poll(() => recorderFigure(page, 'recordedMs'), { timeout: 150_000, intervals: [1000] }).toBeGreaterThan(visitMs() + 1000);

    await page.getByRole('button', { name: 'End visit' }).click();

    // ---- Processing, then the note ----
    await expect(page.getByTestId('visit-status')).toHaveText(/Processing|Note ready/);
    await attachShot(page, 'processing');
    const recordedMs = await recorderFigure(page, 'recordedMs');
    expect(recordedMs).toBeGreaterThan(10_000);
    await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });

    // No audio lost and none stored twice: the server holds exactly what the browser recorded.
    const list = await apiFromPage<{ sessions: Array<{ ambient_session_id: string; audio_ms: number }> }>(
      page,
      `/api/v1/ambient/sessions?date=${day}&utc_offset_minutes=${-new Date().getTimezoneOffset()}`,
    );
    const row = list.sessions.find((s) => s.ambient_session_id === sessionId)!;
    // Millisecond rounding per recording and the 1 ms reconnect probe are the only slack.
    expect(row.audio_ms, `server ${row.audio_ms} ms vs recorded ${recordedMs} ms`).toBeGreaterThanOrEqual(Math.floor(recordedMs) - 2);
    expect(row.audio_ms, `server ${row.audio_ms} ms vs recorded ${recordedMs} ms`).toBeLessThanOrEqual(Math.ceil(recordedMs) + 3);
    const recs = await apiFromPage<{ recordings: unknown[] }>(page, `/api/v1/ambient/session/${sessionId}/recording`);
    expect(recs.recordings.length).toBeGreaterThanOrEqual(2); // the drop started a second recording

    const sections = page.getByTestId('note-section');
    await expect(sections.first()).toBeVisible();
    expect(await sections.count()).toBeGreaterThanOrEqual(2);
    const sd = page.getByTestId('structured-data');
    // Where the fake microphone's loop starts and where the drop splits the recording vary from run to run;
    // one split cannot cut both medication lines, and the final pass decodes each part whole.
    await expect(sd.getByTestId('medications')).toContainText(/lisinopril|amoxicillin/i);
    await expect(page.getByTestId('transcript').locator('li').first()).toBeVisible();
    await expectAccessible(page, 'note');
    await attachShot(page, 'note');

    // ---- Rewrite a selection and write it back ----
    const section = page.locator('[data-testid="note-section"][data-loinc="10164-2"]');
    const box = section.locator('textarea');
    await box.focus();
    await box.press('Control+End');
    await box.pressSequentially(' Pt has HTN and SOB.');
    await expect(section.getByTestId('save-state')).toHaveText('Saved');
    const original = await box.inputValue();
    const start = original.lastIndexOf(' Pt has') + 1;
    const end = original.length;
    await box.evaluate((el: HTMLTextAreaElement, [a, z]) => {
      el.setSelectionRange(a!, z!);
      el.dispatchEvent(new Event('select', { bubbles: true }));
    }, [start, end]);
    await page.keyboard.press('Alt+W');
    await expect(page.getByRole('menu', { name: 'Rewrite the selection' })).toBeVisible();
    await page.getByRole('menuitem', { name: 'Verbose' }).click();
    const preview = page.getByTestId('rewrite-preview');
    await expect(preview).toBeVisible({ timeout: 60_000 });
    await expect(preview).toContainText(/hypertension/i);
    const rewritten = (await preview.textContent())!;
    await expectAccessible(page, 'rewrite preview');
    await attachShot(page, 'rewrite-preview');
    await page.getByRole('button', { name: 'Replace selection' }).click();
    await expect(box).toHaveValue(original.slice(0, start) + rewritten);
    await expect(section.getByTestId('save-state')).toHaveText('Saved');
    const stored = await apiFromPage<{ summary: Array<{ loinc_code: string; content: string }> }>(page, `/api/v1/ambient/session/${sessionId}/content`);
    expect(stored.summary.find((x) => x.loinc_code === '10164-2')!.content).toBe(original.slice(0, start) + rewritten);
    await attachShot(page, 'rewrite-written-back');
    // Undo restores the original and saves it.
    await section.getByRole('button', { name: 'Undo rewrite' }).click();
    await expect(box).toHaveValue(original);
    await expect(section.getByTestId('save-state')).toHaveText('Saved');
    // A plain edit autosaves too and survives a reload.
    await box.press('Control+End');
    await box.pressSequentially(' Reviewed.');
    await expect(section.getByTestId('save-state')).toHaveText('Saved');
    await page.reload();
    await expect(page.locator('[data-testid="note-section"][data-loinc="10164-2"] textarea')).toHaveValue(original + ' Reviewed.');

    // ---- Copy the whole note ----
    await page.getByRole('button', { name: 'Copy whole note' }).click();
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    expect(clip).toContain(original + ' Reviewed.');

    // ---- Download the FHIR bundle: the edited note as a FHIR R4 document ----
    const [fhirFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download FHIR bundle' }).click()]);
    expect(fhirFile.suggestedFilename()).toBe(`visit-${sessionId}.fhir.json`);
    const fhir = JSON.parse(fs.readFileSync((await fhirFile.path())!, 'utf8'));
    expect(fhir).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    const hpiSection = fhir.entry[0].resource.section.find((x: { code: { coding: Array<{ code: string }> } }) => x.code.coding[0]!.code === '10164-2');
    expect(hpiSection.text.div).toContain('Reviewed.');

    // ---- Audio playback seeks to a transcript line ----
    const lines = page.getByTestId('transcript').locator('li button');
    const target = lines.nth(Math.min(2, (await lines.count()) - 1));
    const stamp = (await target.locator('span').first().textContent())!;
    const [m, s] = stamp.split(':').map(Number);
    await target.click();
    const player = page.getByTestId('audio-player');
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 20_000 }).toBeGreaterThanOrEqual(Math.max(0, m! * 60 + s! - 1));
    await expect.poll(() => player.evaluate((a: HTMLAudioElement) => !a.paused || a.ended)).toBe(true);

    // ---- Today's list shows the visit with its length ----
    await page.goto('/visits');
    const rowEl = page.getByTestId('visits-table').getByRole('row', { name: /Cough and fever for two weeks/ });
    await expect(rowEl).toContainText('Note ready');
    await expect(rowEl).toContainText(/New patient/);
    await attachShot(page, 'visits-list');

    // ---- Tablet and phone widths ----
    for (const width of [768, 375]) {
      await page.setViewportSize({ width, height: 1024 });
      for (const p of ['/visits', '/visits/new', `/visits/${sessionId}`, `/visits/${sessionId}/summary`]) {
        await page.goto(p);
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, `${p} at ${width} px`);
      }
    }
    await attachShot(page, 'note-tablet');
  });

  test('explains a denied microphone', async ({ browser, state }) => {
    const ctx = await browser.newContext({ ...devices['Desktop Chrome'], baseURL: state.baseUrl, permissions: [] });
    const page = await ctx.newPage();
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = async () => {
        throw new DOMException('Permission denied', 'NotAllowedError');
      };
    });
    await loginAs(page, state.users.clinician, '/visits/new');
    await page.getByRole('textbox', { name: 'Chief complaint' }).fill('Denied microphone check');
    await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
    await page.getByRole('button', { name: 'Start recording' }).click();
    await expect(page.getByTestId('recorder-error')).toContainText('Microphone access is blocked');
    await attachShot(page, 'mic-denied');
    await ctx.close();
  });

  test('no secret reaches the client bundle', async ({ state }: { state: E2EState }) => {
    const dist = path.resolve(import.meta.dirname, '..', process.env.NEXT_DIST_DIR || '.next', 'static');
    expect(fs.existsSync(dist)).toBe(true);
    const secretFile = path.join(state.dataDir, 'keys', 'auth-secret');
    const authSecret = fs.existsSync(secretFile) ? fs.readFileSync(secretFile, 'utf8').trim() : null;
    const needles = ['AUTH_SECRET', 'PRIVATE KEY-----', 'whsec_', ...(authSecret ? [authSecret] : [])];
    const hits: string[] = [];
    let files = 0;
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else {
          files++;
          const text = fs.readFileSync(p, 'utf8');
          for (const n of needles) if (text.includes(n)) hits.push(`${path.relative(dist, p)}: ${n === authSecret ? '<the AUTH_SECRET value>' : n}`);
        }
      }
    };
    walk(dist);
    expect(files).toBeGreaterThan(10);
    expect(hits).toEqual([]);
  });
});
