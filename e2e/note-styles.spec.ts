/**
 * Note styles, templates and pre-charting (issue 31 items 1-2), in Debian's Chromium with the fake microphone
 * playing the Festival-voiced visit: the clinician saves a personal template as their default, opens the next
 * visit and sees the patient's pre-charted problems before recording, adds a pre-visit note, records, gets
 * the note in their template (template text marked), then picks SOAP and sees the note written again.
 * The suite's clinician is shared with other specs, so their preferences are put back at the end.
 */
import type { Page } from '@playwright/test';
import { apiFromPage, expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, recorderFigure, test } from './fixtures';
import { ensureVisitWav, visitMicrophoneArgs, visitMs } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

/** A call to the API as the signed-in clinician (the app's own token), answering status and body. */
async function clinicianApi(page: Page, method: string, url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ([m, u, b]) => {
      const t = await (await fetch('/api/app/token')).json();
      const res = await fetch(u as string, { method: m as string, headers: { sdp_service_token: t.service_token, 'content-type': 'application/json' }, body: JSON.stringify(b) });
      return { status: res.status, body: await res.json() };
    },
    [method, url, body],
  );
}

const headings = (page: Page) => page.getByTestId('note-section').locator('h3').allTextContents();

test.describe('note styles and pre-charting', () => {
  test('saves a template, pre-charts the next visit, writes its note in the template and again in SOAP', async ({ page, state }) => {
    test.setTimeout(NOTE_READY_BOUND_MS + 420_000);
    await loginAs(page, state.users.clinician, '/templates');
    try {
      // ---- A personal template, made the default ----
      await expect(page.getByRole('heading', { name: 'Note templates' })).toBeVisible();
      await page.getByRole('button', { name: 'New template' }).click();
      const form = page.getByTestId('template-form');
      await form.getByRole('textbox', { name: 'Template name' }).fill('Chest clinic');
      const rows = form.getByTestId('template-section');
      await expect(rows).toHaveCount(4); // a new template starts from SOAP's sections
      await rows.nth(0).getByRole('textbox', { name: 'Heading' }).fill('Story');
      await rows.nth(0).getByRole('combobox', { name: 'Filed under' }).selectOption('10164-2');
      await rows.nth(1).getByRole('textbox', { name: 'Heading' }).fill('Impression and plan');
      await rows.nth(1).getByRole('combobox', { name: 'Filed under' }).selectOption('51847-2');
      await rows.nth(1).getByRole('combobox', { name: 'Format' }).selectOption('BULLETED');
      // Template text that says what the patient agreed to is refused, naming the field.
      await rows.nth(1).getByRole('textbox', { name: /Template text/ }).fill('Patient agrees with the plan.');
      await form.getByRole('button', { name: 'Remove section 4' }).click();
      await form.getByRole('button', { name: 'Remove section 3' }).click();
      await form.getByRole('button', { name: 'Move section 2 up' }).click();
      await form.getByRole('button', { name: 'Save template' }).click();
      await expect(form.getByRole('alert')).toContainText(/template_text\[0\]: must not state what the patient said or agreed to/);
      await rows.nth(0).getByRole('textbox', { name: /Template text/ }).fill('Return precautions given.');
      await expectAccessible(page, '/templates editing');
      await form.getByRole('button', { name: 'Save template' }).click();
      await expect(page.getByTestId('templates-status')).toHaveText('Template Chest clinic saved.');
      await expect(page.getByTestId('template-item')).toContainText('Impression and plan · Story');
      await page.getByRole('combobox', { name: 'New visits are written in' }).selectOption({ label: 'My template: Chest clinic' });
      await page.getByRole('button', { name: 'Save default' }).click();
      await expect(page.getByTestId('templates-status')).toHaveText('Default note style saved.');

      // ---- The next visit: pre-charted problems before recording ----
      await page.goto('/visits/new');
      await page.getByRole('textbox', { name: 'Chief complaint' }).fill('Cough and fever');
      await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
      await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
      const sessionId = page.url().split('/').pop()!;
      const patched = await clinicianApi(page, 'PATCH', `/api/v1/ambient/session/${sessionId}/context`, {
        diagnoses: { values: [{ codes: [{ code: 'I10', description: 'Essential hypertension', type: 'ICD10' }] }] },
        orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'CONTINUED', dosage: { raw_value: '10 mg' }, frequency: { raw_value: 'daily' } }] } },
      });
      expect(patched.status).toBe(200);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Recording', exact: true })).toBeVisible();
      const chart = page.getByTestId('pre-chart');
      await expect(chart.getByRole('heading', { name: 'Before the visit' })).toBeVisible();
      await expect(chart).toContainText('Essential hypertension');
      await expect(chart).toContainText('I10');
      await expect(chart).toContainText('lisinopril — 10 mg daily');
      await chart.getByRole('textbox', { name: 'Pre-visit note' }).fill('Recheck blood pressure at this visit');
      await chart.getByRole('button', { name: 'Save note' }).click();
      await expect(chart.getByTestId('previsit-saved')).toHaveText('Pre-visit note saved');
      // The visit starts in the clinician's default: their template.
      await expect(page.getByRole('combobox', { name: 'Style for this visit' })).toHaveValue(/^template:/);
      await expectAccessible(page, 'visit with pre-chart');

      // ---- Record the visit ----
      await page.getByRole('button', { name: /Start recording/ }).click();
      await expect(page.getByTestId('connection-state')).toHaveText(/Connected/);
      await expect(chart).toBeVisible(); // still there while recording
      await expect.poll(() => recorderFigure(page, 'recordedMs'), { timeout: 150_000, intervals: [1000] }).toBeGreaterThan(visitMs() + 1000);
      await page.getByRole('button', { name: 'End visit' }).click();
      await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });

      // ---- The note in the template: its sections and headings, its fixed wording marked ----
      await expect(page.getByTestId('note-section').first()).toBeVisible();
      expect(await headings(page)).toEqual(['Impression and plan', 'Story']);
      const plan = page.locator('[data-testid="note-section"][data-loinc="51847-2"]');
      await expect(plan.getByTestId('template-text')).toContainText('Return precautions given.');
      await expect(plan.locator('textarea')).toHaveValue(/^• Return precautions given\./);
      const story = page.locator('[data-testid="note-section"][data-loinc="10164-2"]');
      await expect(story.getByTestId('template-text')).toContainText('Pre-visit note: Recheck blood pressure at this visit');
      const content = await apiFromPage<{ summary: Array<{ title: string; sentences?: Array<{ text: string; template?: boolean; source_transcripts: string[] }> }> }>(
        page,
        `/api/v1/ambient/session/${sessionId}/content`,
      );
      // The template's line and the pre-visit note are template text with no transcript entry behind them
      // (the engine may mark fixed wording of its own as well).
      const mine = ['Return precautions given.', 'Pre-visit note: Recheck blood pressure at this visit'];
      const fixed = content.summary.flatMap((s) => s.sentences ?? []).filter((s) => mine.includes(s.text));
      expect(fixed.map((s) => [s.text, s.template, s.source_transcripts])).toEqual(mine.map((t) => [t, true, []]));

      // ---- Another style: the note is written again, without re-recording ----
      await page.getByRole('combobox', { name: 'Style for this visit' }).selectOption('SOAP');
      await page.getByRole('button', { name: 'Apply style' }).click();
      await expect(page.getByTestId('style-status')).toHaveText('The note was written again in this style.');
      await expect.poll(() => headings(page)).toEqual(['SUBJECTIVE', 'OBJECTIVE', 'ASSESSMENT', 'PLAN']);
      const recordings = await apiFromPage<{ recordings: unknown[] }>(page, `/api/v1/ambient/session/${sessionId}/recording`);
      expect(recordings.recordings.length).toBe(1);
      await expect(page.locator('[data-testid="note-section"][data-loinc="61150-9"]').getByTestId('template-text')).toContainText('Pre-visit note:');
      await expectAccessible(page, 'restyled note');
    } finally {
      // Other specs sign in as the same clinician and expect the requested sections.
      await clinicianApi(page, 'PATCH', '/api/v1/user/preferences', { personalization_preference: { note_style: null, templates: [] } }).catch(() => undefined);
    }
  });
});
