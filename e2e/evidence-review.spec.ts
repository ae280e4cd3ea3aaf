/**
 * Issue 27's "Done when" in the browser: a visit recorded from the fake microphone playing natural voices
 * (Festival, as in clinician.spec.ts), then a note sentence's evidence opened with the keyboard (its
 * transcript lines highlighted) and played (the player moves through that stretch and stops at its end), a
 * transcript line showing the sentence that used it, the review listed before signing, one item resolved by
 * an edit and the others acknowledged, the signature, and the review found in the note history.
 */
import { type Page } from '@playwright/test';
import { apiFromPage, expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, recorderFigure, test } from './fixtures';
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

const audioTime = (page: Page) => page.getByTestId('audio-player').evaluate((a: HTMLAudioElement) => a.currentTime);

test('a sentence opens its transcript lines and audio; the review lists, resolves and acknowledges before signing, and stays in the history', async ({ page, state }) => {
  test.setTimeout(NOTE_READY_BOUND_MS + 600_000);
  await loginAs(page, state.users.clinician, '/visits');
  const sessionId = await recordVisit(page);
  type Ev = { transcript_ids: string[]; start_ms: number; end_ms: number } | null;
  const content = await apiFromPage<{
    summary: Array<{ loinc_code: string; title: string; sentences?: Array<{ text: string; evidence?: Ev }> }>;
    structured_data: { diagnoses: { values: Array<{ codes: Array<{ code: string; type: string }>; evidence?: Ev }> } };
  }>(
    page,
    `/api/v1/ambient/session/${sessionId}/content`,
  );
  const withEvidence = content.summary.flatMap((s) => (s.sentences ?? []).filter((x) => x.evidence).map((x) => ({ ...x, section: s })));
  expect(withEvidence.length, 'the note has sentences with evidence').toBeGreaterThan(0);
  const target = withEvidence[0]!;
  const evidence = target.evidence!;

  // ---- Open a sentence's evidence with the keyboard ----
  const section = page.locator(`[data-testid="note-section"][data-loinc="${target.section.loinc_code}"]`);
  const show = section.getByRole('button', { name: /^Show evidence/ });
  await show.focus();
  await page.keyboard.press('Enter');
  await expect(section.getByRole('button', { name: /^Hide evidence/ })).toHaveAttribute('aria-expanded', 'true');
  const sentence = section.getByTestId('sentence-evidence').getByRole('button', { name: new RegExp(`^${escape(target.text)}`) }).first();
  await sentence.focus();
  await page.keyboard.press('Enter');
  await expect(sentence).toHaveAttribute('aria-pressed', 'true');
  const highlighted = page.getByTestId('transcript').locator('li[data-evidence]');
  await expect(highlighted).toHaveCount(evidence.transcript_ids.length);
  await expect(page.getByTestId('transcript').locator(`li#line-${evidence.transcript_ids[0]}`)).toHaveAttribute('data-evidence', 'true');
  await expect(page.getByTestId('evidence-bar')).toContainText(target.text);
  await expect(page.getByTestId('evidence-bar')).toContainText(`${evidence.transcript_ids.length} highlighted line`);
  await expectAccessible(page, 'note with a sentence and its evidence chosen');

  // ---- Play it: the player moves through the stretch and stops at its end ----
  await section.getByRole('button', { name: /^Play evidence/ }).click();
  const startS = evidence.start_ms / 1000;
  const endS = Math.max(evidence.end_ms, evidence.start_ms + 1000) / 1000;
  await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(startS - 0.05);
  const first = await audioTime(page);
  await expect.poll(() => audioTime(page), { timeout: 30_000 }).toBeGreaterThan(first);
  await expect.poll(() => page.getByTestId('audio-player').evaluate((a: HTMLAudioElement) => a.paused), { timeout: 60_000 }).toBe(true);
  const stopped = await audioTime(page);
  expect(stopped).toBeGreaterThanOrEqual(endS - 0.05);
  expect(stopped).toBeLessThan(endS + 1.5);

  // ---- A transcript line shows the sentences that used it ----
  await highlighted.first().getByRole('button').first().click();
  const usedBy = page.getByTestId('used-by');
  await expect(usedBy).toContainText('Used in the note by:');
  await expect(usedBy).toContainText(target.text);
  await expectAccessible(page, 'transcript line with the sentences that used it');

  // ---- A coded diagnosis opens its evidence the same way ----
  const dx = content.structured_data.diagnoses.values.find((d) => d.evidence);
  if (dx) {
    const code = dx.codes.find((c) => c.type !== 'HCC')!.code;
    const toggle = page.getByTestId('diagnoses').getByRole('button', { name: new RegExp(`^Evidence for ${escape(code)} `) });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(highlighted).toHaveCount(dx.evidence!.transcript_ids.length);
    await expect(page.getByTestId('evidence-bar')).toContainText(code);
  }

  // ---- Edit two sections, then Sign opens the review ----
  const sections = page.getByTestId('note-section');
  const titles: string[] = [];
  for (let i = 0; i < 2; i++) {
    const s = sections.nth(i);
    titles.push((await s.locator('h3').textContent())!.trim());
    const box = s.locator('textarea');
    await box.focus();
    await box.press('Control+End');
    await box.pressSequentially(' Reviewed with the patient.');
    await expect(s.getByTestId('save-state')).toHaveText('Saved');
  }
  await page.getByRole('button', { name: 'Sign note' }).click();
  const dialog = page.getByRole('dialog', { name: 'Review before signing' });
  const items = dialog.getByTestId('review-item');
  const edited = dialog.locator('[data-testid="review-item"][data-kind="EDITED_SECTION"]');
  await expect(edited).toHaveCount(2);
  for (const t of titles) await expect(edited.filter({ hasText: `“${t}”` })).toHaveCount(1);
  await expect(dialog.getByTestId('review-count')).toContainText('still need');
  await expect(dialog.getByRole('button', { name: 'Confirm and sign' })).toBeDisabled();
  await expectAccessible(page, 'review before signing');

  // ---- Resolve one by editing the section ----
  const toResolve = edited.filter({ hasText: `“${titles[0]}”` });
  await toResolve.getByRole('button', { name: /^Resolve: edit/ }).click();
  await expect(dialog).toBeHidden();
  const firstBox = sections.nth(0).locator('textarea');
  await expect(firstBox).toBeFocused();
  // What to do is said above the section being edited (it was a toast over the note).
  await expect(sections.nth(0).getByTestId('sign-hint')).toContainText(`“${titles[0]}”. Edit it here, then press Sign note again.`);
  await expect(sections.nth(1).getByTestId('sign-hint')).toHaveCount(0);
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Checked against the recording.');
  await expect(sections.nth(0).getByTestId('save-state')).toHaveText('Saved');

  // ---- Back in the review: the resolved item keeps its decision; acknowledge the rest ----
  await page.getByRole('button', { name: 'Sign note' }).click();
  await expect(toResolve).toHaveAttribute('data-decision', 'RESOLVED');
  await expect(toResolve).toContainText('Resolved');
  const listed = await items.count();
  expect(listed).toBeGreaterThanOrEqual(2);
  const pending = dialog.locator('[data-testid="review-item"][data-decision="none"]');
  while ((await pending.count()) > 0) await pending.first().getByRole('button', { name: 'Acknowledge' }).click();
  await expect(dialog.getByTestId('review-count')).toHaveText(`All ${listed} items are decided.`);
  await expect(dialog.getByRole('button', { name: 'Confirm and sign' })).toBeDisabled();
  await dialog.getByRole('checkbox', { name: /I have reviewed this note and every item listed/ }).check();
  // A sign the server refuses is said in the dialog the signer is looking at (it was a toast behind it), and the
  // decisions stay for the next try. The refusal is the browser's stand-in for a 409, so the real sign follows it.
  await page.route('**/note/sign', (route) => route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ code: 409, message: 'the note changed since this review was opened' }) }), { times: 1 });
  await dialog.getByRole('button', { name: 'Confirm and sign' }).click();
  await expect(dialog.getByTestId('sign-error')).toContainText('The note was not signed');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('review-count')).toHaveText(`All ${listed} items are decided.`);
  await dialog.getByRole('checkbox', { name: /I have reviewed this note and every item listed/ }).check();
  await dialog.getByRole('button', { name: 'Confirm and sign' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('note-status')).toHaveText('Signed');
  // The review's "edit, then sign again" hint no longer applies once signed (issue 27: it stayed on screen).
  await expect(page.getByText('then press Sign note again')).toHaveCount(0);

  // ---- The review is in the history ----
  const review = page.getByTestId('note-history').locator('li[data-event="sign"]').getByTestId('signed-review');
  await expect(review).toContainText(`Review before signing: 1 resolved, ${listed - 1} acknowledged`);
  await review.locator('summary').click();
  await expect(review).toContainText(`Resolved (edited since generation): “${titles[0]}”`);
  await expect(review).toContainText(`Acknowledged (edited since generation): “${titles[1]}”`);
  await expect(review).toContainText('Attested: I have reviewed this note and every item listed');
  const history = await apiFromPage<{ events: Array<{ type: string; review?: { items: Array<{ kind: string; text: string; decision: string }> } }> }>(page, `/api/v1/ambient/session/${sessionId}/note/history`);
  const signed = history.events.find((e) => e.type === 'sign')!;
  expect(signed.review!.items).toHaveLength(listed);
  expect(signed.review!.items).toContainEqual(expect.objectContaining({ kind: 'EDITED_SECTION', text: titles[0], decision: 'RESOLVED' }));
  expect(signed.review!.items).toContainEqual(expect.objectContaining({ kind: 'EDITED_SECTION', text: titles[1], decision: 'ACKNOWLEDGED' }));
  await expectAccessible(page, 'signed note with its review');
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
