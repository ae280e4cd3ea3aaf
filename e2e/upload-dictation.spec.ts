/**
 * Issue 31 items 3–5 in Debian's Chromium: a visit's recording uploaded as a file (a Festival-voiced WAV,
 * and the same visit as an MP3 made by ffmpeg, the decoder the server uses) becomes a note; a refused file
 * says why; Dictate streams the fake microphone into a note section at the cursor with live partials; and
 * the live transcript of a recorded visit names the clinician and the patient as the engine learns them.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, test } from './fixtures';
import { ensureVisitWav, VISIT_WAV, VISIT_WORDS, visitMicrophoneArgs } from './visit-audio';

ensureVisitWav();
const VISIT_MP3 = path.join(path.dirname(VISIT_WAV), 'visit-festival.mp3');
if (!fs.existsSync(VISIT_MP3)) execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-i', VISIT_WAV, '-b:a', '64k', '-y', VISIT_MP3]);

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

/** A new visit through the API with the signed-in clinician's token; answers its page. */
async function newVisit(page: Page, chief: string): Promise<string> {
  const id = await page.evaluate(async (chiefComplaint) => {
    const t = await (await fetch('/api/app/token')).json();
    const headers = { sdp_service_token: t.service_token, 'content-type': 'application/json', ...(t.provider_id ? { sdp_provider_id: t.provider_id } : {}) };
    const created = await (await fetch('/api/v1/ambient/session/create', { method: 'POST', headers, body: '{}' })).json();
    await fetch(`/api/v1/ambient/session/${created.ambient_session_id}/context`, { method: 'POST', headers, body: JSON.stringify({ visit: { chief_complaint: chiefComplaint } }) });
    return created.ambient_session_id as string;
  }, chief);
  await page.goto(`/visits/${id}`);
  await expect(page.getByTestId('visit-heading')).toHaveText(chief);
  return id;
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);

test.describe('upload, dictation and live speaker labels', () => {
  test('uploads a WAV and an MP3 of a visit and gets a note from each; a file that is not audio is refused', async ({ page, state }) => {
    test.setTimeout(2 * NOTE_READY_BOUND_MS + 300_000);
    await loginAs(page, state.users.clinician, '/visits');

    // A text file named .mp3: the server reads its bytes, and the page says what was wrong.
    await newVisit(page, 'Upload refused');
    const upload = page.getByTestId('upload-recording');
    await expect(upload.getByRole('heading', { name: 'Upload a recording' })).toBeVisible();
    await expectAccessible(page, 'visit with the upload control');
    await upload.getByLabel('Recording file').setInputFiles({ name: 'visit.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('Subjective: cough for two weeks.\n'.repeat(50)) });
    await expect(upload.getByTestId('upload-error')).toContainText('file: not audio of an accepted format');
    await expect(page.getByTestId('visit-status')).toHaveText('Not started');

    const pages: Page[] = [];
    for (const [file, chief] of [
      [VISIT_WAV, 'Cough and fever (WAV upload)'],
      [VISIT_MP3, 'Cough and fever (MP3 upload)'],
    ] as const) {
      const p = pages.length ? await page.context().newPage() : page;
      if (pages.length) await p.goto('/visits');
      await newVisit(p, chief);
      const control = p.getByTestId('upload-recording');
      await control.getByLabel('Recording file').setInputFiles(file);
      // Progress is shown while the chunks go (the MP3 is one chunk; the WAV several).
      await expect(p.getByTestId('visit-status')).toHaveText(/Processing|Note ready/, { timeout: 120_000 });
      pages.push(p);
    }
    for (const p of pages) {
      await expect(p.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });
      await expect(p.getByTestId('note-section').first()).toBeVisible();
      // The note and its transcript are the uploaded visit's.
      await expect(p.getByTestId('structured-data').getByTestId('medications')).toContainText(/lisinopril|amoxicillin/i);
      const transcript = (await p.getByTestId('transcript').innerText()).toLowerCase();
      const heard = [...words(transcript)].filter((w) => VISIT_WORDS.has(w));
      expect(heard.length, transcript).toBeGreaterThan(10);
    }
    await expectAccessible(pages[1]!, 'note from an uploaded MP3');

    // Dictation into the first visit's note: at the cursor, with partials while speaking.
    const p = pages[0]!;
    const section = p.getByTestId('note-section').first();
    const box = section.getByRole('textbox');
    const before = await box.inputValue();
    await box.click();
    await box.press('Control+End');
    await section.getByRole('button', { name: /^Dictate/ }).click();
    await expect(section.getByTestId('dictation-live')).toContainText('Listening');
    await expect(section.getByTestId('dictation-partial')).toHaveText(/[a-z]/i, { timeout: 120_000 });
    await expectAccessible(p, 'dictating into a section');
    await expect.poll(async () => (await box.inputValue()).length, { timeout: 180_000 }).toBeGreaterThan(before.length);
    await section.getByRole('button', { name: /^Stop dictating/ }).click();
    await expect(section.getByTestId('dictation-live')).toHaveCount(0, { timeout: 120_000 });
    const after = await box.inputValue();
    // The earlier text is untouched and the dictated words follow it (the cursor was at the end).
    expect(after.startsWith(before)).toBe(true);
    const dictated = [...words(after.slice(before.length))];
    expect(dictated.filter((w) => VISIT_WORDS.has(w)).length, after.slice(before.length)).toBeGreaterThan(2);
    await expect(section.getByTestId('save-state')).toHaveText('Saved', { timeout: 30_000 });
    await p.reload();
    await expect(p.getByTestId('note-section').first().getByRole('textbox')).toHaveValue(after);
  });

  test('shows upload progress and resends a chunk lost on the way', async ({ page, state }) => {
    test.setTimeout(600_000);
    // 100 s of silence: four chunks, and a visit the pipeline skips quickly (nothing was said).
    const silence = path.join(path.dirname(VISIT_WAV), 'silence-100s.wav');
    if (!fs.existsSync(silence)) execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '100', '-c:a', 'pcm_s16le', '-y', silence]);
    await loginAs(page, state.users.clinician, '/visits');
    await newVisit(page, 'Large upload');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const offsets: number[] = [];
    let dropped = false;
    await page.route((url) => url.pathname.includes('/uploads/') && url.searchParams.has('offset'), async (route) => {
      const offset = Number(new URL(route.request().url()).searchParams.get('offset'));
      offsets.push(offset);
      if (offset > 0 && !dropped) {
        // The network fails under the second chunk: the uploader asks where the upload stands and resends.
        dropped = true;
        await held;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.getByTestId('upload-recording').getByLabel('Recording file').setInputFiles(silence);
    const progress = page.getByTestId('upload-progress');
    await expect(progress).toBeVisible();
    await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect(page.getByTestId('upload-recording').getByRole('status')).toContainText(/Uploading silence-100s\.wav: \d+\.\d MB of 3\.1 MB/);
    release();
    await expect(page.getByTestId('visit-status')).toHaveText(/Processing|Skipped/, { timeout: 120_000 });
    // The chunk that was lost went again from the same offset; none was sent twice after it was stored.
    const lost = offsets.find((o) => o > 0)!;
    expect(offsets.filter((o) => o === lost)).toHaveLength(2);
    expect(new Set(offsets).size).toBe(offsets.length - 1);
    await expect(page.getByTestId('visit-status')).toHaveText('Skipped', { timeout: NOTE_READY_BOUND_MS });
  });

  test('labels live transcript lines Clinician and Patient while recording', async ({ page, state }) => {
    test.setTimeout(600_000);
    await loginAs(page, state.users.clinician, '/visits');
    await newVisit(page, 'Live speaker labels');
    await page.getByRole('button', { name: 'Start recording' }).click();
    const live = page.getByTestId('live-transcript');
    await expect(live.locator('li').first()).toBeVisible({ timeout: 120_000 });
    // The visit opens with the clinician's question and then the patient's answer; the fake microphone loops it.
    await expect(live.getByText('Clinician:').first()).toBeVisible({ timeout: 300_000 });
    await expect(live.getByText('Patient:').first()).toBeVisible({ timeout: 300_000 });
    const lines = await live.locator('li').allInnerTexts();
    const clinician = lines.find((l) => l.includes('Clinician:'))!;
    const patient = lines.find((l) => l.includes('Patient:'))!;
    expect(clinician.replace(/^\S+\s+Clinician:\s*/, '').trim()).not.toBe('');
    expect(patient.replace(/^\S+\s+Patient:\s*/, '').trim()).not.toBe('');
    await expectAccessible(page, 'live transcript with speaker labels');
    await page.getByRole('button', { name: 'End visit' }).click();
    await expect(page.getByTestId('visit-status')).toHaveText(/Processing|Note ready/, { timeout: 120_000 });
  });
});
