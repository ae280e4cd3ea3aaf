/**
 * Issue 29's "Done when" in the browser: a visit recorded from the fake microphone playing natural voices
 * (Festival, as in evidence-review.spec.ts), then a diagnosis the note missed and an allergy added from the
 * structured-data panel with the keyboard through its code searches, the note signed, and both found in the
 * patient's after-visit summary and in the downloaded FHIR bundle.
 */
import fs from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, recorderFigure, test } from './fixtures';
import { signThroughReview } from './sign-review';
import { ensureVisitWav, visitMicrophoneArgs, visitMs } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

/** Creates a visit, records the whole synthesised visit once over, ends it and waits for the note. */
async function recordVisit(page: Page): Promise<string> {
  await page.goto('/visits/new');
  await page.getByRole('textbox', { name: 'Chief complaint' }).fill('Cough and fever for two weeks');
  await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'Recording', exact: true })).toBeVisible();
  await page.keyboard.press('Alt+R');
  await expect(page.getByTestId('connection-state')).toHaveText(/Connected/);
  await expect.poll(() => recorderFigure(page, 'recordedMs'), { timeout: 150_000, intervals: [1000] }).toBeGreaterThan(visitMs() + 1000);
  await page.getByRole('button', { name: 'End visit' }).click();
  // A bound for a wedged pipeline on a shared two-core machine, not a speed check.
  await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });
  return sessionId;
}

/** Types into a code search, waits for the option and picks it with the keyboard. */
async function pickCode(page: Page, label: string, typed: string, option: RegExp): Promise<void> {
  const box = page.getByRole('combobox', { name: label });
  await box.focus();
  await page.keyboard.type(typed);
  const listbox = page.getByRole('listbox', { name: `${label} matches` });
  await expect(listbox.getByRole('option', { name: option }).first()).toBeVisible();
  const options = await listbox.getByRole('option').allTextContents();
  const index = options.findIndex((o) => option.test(o));
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await expect(listbox.getByRole('option', { selected: true })).toHaveText(option);
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^Selected: /)).toBeVisible();
}

test('a missed diagnosis and an allergy added to a recorded visit reach the signed note, the after-visit summary and the FHIR bundle', async ({ page, state }) => {
  test.setTimeout(NOTE_READY_BOUND_MS + 600_000);
  await loginAs(page, state.users.clinician, '/visits');
  const sessionId = await recordVisit(page);
  const panel = page.getByTestId('structured-data');
  await expect(panel.getByRole('heading', { name: 'Allergies' })).toBeVisible();

  // ---- A diagnosis the note missed: found by words, picked with the keyboard ----
  await panel.getByRole('button', { name: 'Add diagnosis' }).focus();
  await page.keyboard.press('Enter');
  const dxForm = panel.getByRole('form', { name: 'Add diagnosis' });
  await expect(dxForm).toBeVisible();
  await pickCode(page, 'Diagnosis (ICD-10-CM)', 'type 2 diabetes without', /Type 2 diabetes mellitus without complications/);
  await dxForm.getByRole('textbox', { name: 'Note' }).fill('On metformin at home.');
  await expectAccessible(page, 'structured-data panel with the diagnosis form open');
  await dxForm.getByRole('button', { name: 'Save' }).click();
  await expect(dxForm).toBeHidden();
  const diagnoses = panel.getByTestId('diagnoses');
  await expect(diagnoses).toContainText('E11.9');
  await expect(diagnoses).toContainText('On metformin at home.');

  // ---- An allergy, with its reaction ----
  await panel.getByRole('button', { name: 'Add allergy' }).click();
  const allergyForm = panel.getByRole('form', { name: 'Add allergy' });
  await pickCode(page, 'Substance', 'penicillin', /penicillin/i);
  await allergyForm.getByRole('textbox', { name: 'Reaction' }).fill('rash');
  await allergyForm.getByRole('button', { name: 'Save' }).click();
  await expect(allergyForm).toBeHidden();
  const allergies = panel.getByTestId('allergies');
  await expect(allergies).toContainText(/penicillin/i);
  await expect(allergies).toContainText('rash');
  // Each change is kept with who and what.
  await panel.getByText('Changes to the coded data').click();
  const changes = panel.getByTestId('structured-changes');
  await expect(changes.locator('li[data-action="add"]')).toHaveCount(2);
  await expect(changes).toContainText(/added allergy/);
  await expect(changes).toContainText(/added diagnosis/);
  await expect(changes).toContainText('After: E11.9 Type 2 diabetes mellitus without complications');
  await expectAccessible(page, 'structured-data panel after the edits');

  // The edits are stored, not only shown: a reload reads them back.
  await page.reload();
  await expect(panel.getByTestId('diagnoses')).toContainText('E11.9');
  await expect(panel.getByTestId('allergies')).toContainText('rash');

  // ---- Sign: the panel turns read-only ----
  await signThroughReview(page);
  await expect(panel.getByText('Signed: amend the note to change its coded data.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Add diagnosis' })).toHaveCount(0);
  await expect(panel.getByRole('button', { name: /^Remove / })).toHaveCount(0);

  // ---- The FHIR bundle carries both ----
  const [fhirFile] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download FHIR bundle' }).click()]);
  const fhir = JSON.parse(fs.readFileSync((await fhirFile.path())!, 'utf8')) as { entry: Array<{ resource: Record<string, any> }> };
  const ofType = (t: string) => fhir.entry.map((e) => e.resource).filter((r) => r.resourceType === t);
  expect(ofType('Condition').flatMap((c) => c.code.coding.map((x: { code: string }) => x.code))).toContain('E11.9');
  const allergy = ofType('AllergyIntolerance');
  expect(allergy).toHaveLength(1);
  expect(JSON.stringify(allergy[0]).toLowerCase()).toContain('penicillin');
  expect(JSON.stringify(allergy[0].reaction)).toContain('rash');

  // ---- The after-visit summary names both ----
  await page.getByRole('link', { name: 'Patient summary' }).click();
  await expect(page).toHaveURL(new RegExp(`/visits/${sessionId}/summary$`));
  const summary = page.getByTestId('visit-summary');
  await expect(summary).toContainText(/type 2 diabetes/i);
  await expect(summary).toContainText(/penicillin/i);
  await expectAccessible(page, 'after-visit summary with the added diagnosis and allergy');
});
