/**
 * The clinician workflow of issue 17 end to end in Chromium: a visit created with a patient name and
 * MRN, found again from the next day's list and by search, its note signed, amended with a reason and
 * its history shown, and the patient's after-visit summary printed (print media emulation) and copied.
 * The visit's audio is synthesised speech streamed over /ws/ambient with the clinician's own token.
 */
import { expect, type Page } from '@playwright/test';
import { synthesizeDialogue } from '../server/engines/speech/synth';
import { TestSocket } from '../server/test/ws-client';
import { expectAccessible, loginAs, NOTE_READY_BOUND_MS, test } from './fixtures';
import { signThroughReview } from './sign-review';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const PATIENT = { name: 'Wren Castellano', mrn: 'MRN-E2E-3141' };

/** Streams a short synthesised visit into the session as a partner client would, then ends it. */
async function recordVisit(page: Page, baseUrl: string, sessionId: string) {
  const token = await page.evaluate(async () => (await (await fetch('/api/app/token')).json()).service_token as string);
  const ws = await TestSocket.open(`${baseUrl.replace(/^http/, 'ws')}/ws/ambient`, { protocols: ['AmbientAuth', sessionId, token] });
  ws.startTime();
  const { pcm } = synthesizeDialogue(
    [
      { role: 'PATIENT', text: 'I have had a cough and a fever for two weeks.' },
      { role: 'CLINICIAN', text: 'I think this is acute bronchitis. Start amoxicillin five hundred milligrams three times a day for seven days.' },
      { role: 'CLINICIAN', text: 'Drink plenty of fluids and rest. Come back if the fever lasts more than three days.' },
    ],
    400,
  );
  await ws.sendPcm(pcm);
  ws.eof();
  await ws.closed;
}

test('a visit with a patient name: found the next day and by search, signed, amended, summarised and printed', async ({ page, state }) => {
  test.setTimeout(NOTE_READY_BOUND_MS + 420_000);
  await loginAs(page, state.users.clinician, '/visits');

  // ---- Create a visit with a patient name and MRN ----
  await page.goto('/visits/new');
  await page.getByRole('textbox', { name: 'Patient name' }).fill(PATIENT.name);
  await page.getByRole('textbox', { name: /^MRN/ }).fill(PATIENT.mrn);
  await page.getByRole('textbox', { name: 'Chief complaint' }).fill('Cough and fever');
  await expectAccessible(page, '/visits/new with patient fields');
  // The visit page follows the status over Server-Sent Events instead of polling it.
  const statusStream = page.waitForResponse((r) => r.url().endsWith('/status/events') && r.status() === 200);
  await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split('/').pop()!;
  // The day after the one the visit was created on, taken now: a run that crosses midnight must not ask for the day after that.
  const tomorrow = await page.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() + 1);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  await statusStream;
  const polls: string[] = [];
  page.on('request', (r) => new URL(r.url()).pathname === `/api/v1/ambient/session/${sessionId}/status` && polls.push(r.url()));
  await expect(page.getByTestId('visit-patient')).toContainText(PATIENT.name);
  await expect(page.getByTestId('visit-patient')).toContainText(PATIENT.mrn);

  await recordVisit(page, state.baseUrl, sessionId);
  await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });
  // Every change from ready to completed arrived pushed: at most the first read raced the stream's start
  // (polling every 2 s through the recording and processing would have made many).
  expect(polls.length, polls.join('\n')).toBeLessThanOrEqual(1);

  // ---- Find it from the next day's view ----
  await page.goto(`/visits?date=${tomorrow}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Visits' })).toBeVisible();
  await expect(page.getByLabel('Date')).toHaveValue(tomorrow);
  await expect(page.getByRole('row', { name: new RegExp(PATIENT.name) })).toHaveCount(0);
  await page.getByRole('button', { name: '← Previous day' }).click();
  const row = page.getByTestId('visits-table').getByRole('row', { name: new RegExp(PATIENT.name) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(PATIENT.mrn);
  await expect(row).toContainText('Needs review');
  await expectAccessible(page, 'visits by day');

  // ---- Find it by search (from another day), and in Needs review ----
  await page.getByRole('button', { name: 'Next day →' }).click();
  await expect(page.getByLabel('Date')).toHaveValue(tomorrow);
  await page.getByRole('searchbox', { name: /Patient name, MRN or complaint/ }).fill('castellano');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('visits-heading')).toHaveText('Visits matching “castellano”');
  await expect(page.getByTestId('visits-table').getByRole('row', { name: new RegExp(PATIENT.name) })).toBeVisible();
  await expectAccessible(page, 'search results');
  await page.getByRole('button', { name: 'Clear search' }).click();
  await page.getByRole('button', { name: /^Needs review/ }).click();
  await expect(page.getByTestId('visits-heading')).toHaveText('Notes that need review');
  const reviewRow = page.getByTestId('visits-table').getByRole('row', { name: new RegExp(PATIENT.name) });
  await expect(reviewRow).toBeVisible();
  // The list's scroll region is reachable with the keyboard.
  await expect(page.getByRole('region', { name: 'Notes that need review' })).toHaveAttribute('tabindex', '0');
  await reviewRow.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/visits/${sessionId}$`));

  // ---- Sign: the sections lock ----
  const firstText = page.getByTestId('note-section').first().locator('textarea');
  await expect(firstText).toBeVisible();
  await signThroughReview(page);
  await expect(page.getByTestId('note-status')).toHaveText('Signed');
  await expect(firstText).toHaveAttribute('readonly', '');
  // One status for a signed visit, the header's and the sign-off bar's (issue 29 item 7: "Note ready" beside "Signed").
  await expect(page.getByTestId('visit-status')).toHaveText('Signed');
  await expect(page.getByTestId('visit-status')).not.toHaveText('Note ready');
  // The confirmation is the bar's own status line, not a toast over the note.
  const news = page.getByTestId('signoff-bar').getByTestId('signoff-news');
  await expect(news).toHaveAttribute('role', 'status');
  await expect(news).toHaveText(/^Note signed\./);
  await expect(page.getByTestId('toaster')).not.toContainText('signed');
  // A signed note's style cannot be changed until it is amended, and the button says why.
  const applyStyle = page.getByRole('button', { name: 'Apply style' });
  await expect(applyStyle).toBeDisabled();
  await expect(applyStyle).toHaveAccessibleDescription('Signed notes are locked; amend to change the style.');
  // The note prints without the app's controls or notifications.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Amend note' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Patient summary' })).toBeHidden();
  await expect(page.getByTestId('style-picker')).toBeHidden();
  await expect(page.getByTestId('toaster')).toHaveCSS('display', 'none');
  await expect(page.getByTestId('note-section').first()).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByTestId('note-history').locator('li[data-event="sign"]')).toHaveCount(1);

  // ---- Amend with a reason, edit, sign again, see the history ----
  await page.getByRole('button', { name: 'Amend note' }).click();
  const dialog = page.getByRole('dialog', { name: 'Amend the signed note' });
  await dialog.getByRole('button', { name: 'Reopen for amendment' }).click();
  await expect(dialog.getByText('Say why the signed note is amended')).toBeVisible();
  await dialog.getByRole('textbox', { name: /Reason for the amendment/ }).fill('Corrected the antibiotic course');
  await dialog.getByRole('button', { name: 'Reopen for amendment' }).click();
  await expect(page.getByTestId('note-status')).toHaveText('Amending');
  await expect(page.getByTestId('visit-status')).toHaveText('Amending');
  await expect(news).toHaveText(/^The note is open for amendment\./);
  await expect(applyStyle).toBeEnabled();
  await expect(firstText).not.toHaveAttribute('readonly', '');
  await firstText.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Amended after review.');
  await expect(page.getByTestId('note-section').first().getByTestId('save-state')).toHaveText('Saved');
  await signThroughReview(page);
  await expect(page.getByTestId('note-status')).toHaveText('Amended and signed');
  await expect(page.getByTestId('visit-status')).toHaveText('Amended and signed');
  await expect(applyStyle).toBeDisabled();
  const history = page.getByTestId('note-history');
  await expect(history.locator('li')).toHaveCount(4); // sign, amend, edit, sign (newest first)
  await expect(history.locator('li[data-event="amend"]')).toContainText('Corrected the antibiotic course');
  await expect(history.locator('li[data-event="edit"]')).toContainText('Amended after review.');
  await expect(page.getByRole('region', { name: 'Note history, newest first' })).toHaveAttribute('tabindex', '0');
  await expectAccessible(page, 'signed and amended note');

  // ---- A long history comes in pages: the newest 20 events, older ones on "Load more" (issue 26 item 2) ----
  await page.evaluate(async (id) => {
    const t = (await (await fetch('/api/app/token')).json()) as { service_token: string; provider_id?: string };
    const headers = { 'content-type': 'application/json', sdp_service_token: t.service_token, ...(t.provider_id ? { sdp_provider_id: t.provider_id } : {}) };
    const s = `/api/v1/ambient/session/${id}`;
    const { summary } = (await (await fetch(`${s}/content`, { headers })).json()) as { summary: Array<{ loinc_code: string; content: string }> };
    for (let i = 1; i <= 8; i++) {
      await fetch(`${s}/note/amend`, { method: 'POST', headers, body: JSON.stringify({ reason: `Correction ${i}` }) });
      await fetch(`${s}/content/sections/${summary[0]!.loinc_code}`, { method: 'PUT', headers, body: JSON.stringify({ content: `${summary[0]!.content} Correction ${i}.` }) });
      await fetch(`${s}/note/sign`, { method: 'POST', headers });
    }
  }, sessionId);
  await page.reload();
  await expect(history.locator('li')).toHaveCount(20);
  await expect(history.locator('li').first()).toHaveAttribute('data-event', 'sign');
  await expect(history.locator('li[data-event="amend"]').first()).toContainText('Correction 8');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(history.locator('li')).toHaveCount(4 + 8 * 3);
  await expect(history.locator('li').last()).toHaveAttribute('data-event', 'sign'); // the first signature
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  // ---- The after-visit summary: copied, printed ----
  await page.getByRole('link', { name: 'Patient summary' }).click();
  await expect(page).toHaveURL(new RegExp(`/visits/${sessionId}/summary$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Your visit summary' })).toBeVisible();
  await expect(page.getByText(`For ${PATIENT.name}.`)).toBeVisible();
  await expect(page.getByTestId('avs-about')).toContainText('You came in for cough and fever.');
  await expect(page.getByTestId('avs-get-help')).toBeVisible();
  await expectAccessible(page, 'visit summary');

  await page.getByRole('button', { name: 'Copy summary' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('Your visit summary');
  expect(copied).toContain('When to get help');

  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void ((window as unknown as { printed: number }).printed += 1);
  });
  await page.getByRole('button', { name: 'Print summary' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  await page.emulateMedia({ media: 'print' });
  // The print stylesheet drops the app's header, the buttons and the notifications (the copy's toast, shown or faded) and keeps the summary.
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByTestId('avs-actions')).toBeHidden();
  await expect(page.getByTestId('toaster')).toHaveCSS('display', 'none');
  await expect(page.getByText('copied to the clipboard')).toBeHidden();
  await expect(page.locator('button:visible')).toHaveCount(0);
  await expect(page.getByTestId('visit-summary')).toBeVisible();
  await expect(page.getByTestId('avs-medicines')).toBeVisible();
  await expectAccessible(page, 'visit summary (print media)');
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByTestId('avs-actions')).toBeVisible();
});
