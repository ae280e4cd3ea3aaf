/**
 * Issue 31 items 6, 7 and 9 in Chromium: a clinician goes from sign-in to a signed note with the keyboard
 * alone while focus lands where it should (skip link, New visit, the visit's heading, Processing, the note's
 * heading) and saves are announced once; the form checks the contract's limits as it is typed; at 390 px a
 * long title leaves the recorder in view and nothing in the main content overflows sideways; and search
 * finds the visit by a word of its note, marked. The fake microphone plays the Festival-voiced visit.
 */
import { type Locator, type Page } from '@playwright/test';
import { apiFromPage, expect, expectAccessible, loginAs, NOTE_READY_BOUND_MS, recorderFigure, test } from './fixtures';
import { ensureVisitWav, visitMicrophoneArgs, visitMs } from './visit-audio';

ensureVisitWav();

test.use({
  permissions: ['microphone'],
  launchOptions: { executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: visitMicrophoneArgs() },
});

/** Presses Tab (Shift+Tab with `back`) until `target` has focus; fails naming it if it is never reached. */
async function tabTo(page: Page, target: Locator, what: string, back = false): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${what}`);
}

/** How far the element's content reaches past its right edge (0 when nothing overflows sideways). */
const overflowX = (l: Locator) => l.evaluate((el) => el.scrollWidth - el.clientWidth);

test('keyboard only: sign-in to a signed note, with focus landing on each step and one announcement per save', async ({ page, state }) => {
  test.setTimeout(NOTE_READY_BOUND_MS + 600_000);
  const user = state.users.clinician;
  await page.goto('/login?callbackUrl=%2Fvisits');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type(user.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/visits$/);
  await expect(page.getByText('Loading visits…')).toHaveCount(0);

  // ---- The skip link is the first Tab stop and lands in the page's main content ----
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
  await expectAccessible(page, '/visits after the skip link');

  // ---- Alt+N: the form's first field has focus; Enter creates the visit and focus lands on its heading ----
  await page.keyboard.press('Alt+N');
  await expect(page).toHaveURL(/\/visits\/new$/);
  const complaint = page.getByRole('textbox', { name: 'Chief complaint' });
  await expect(complaint).toBeFocused();
  await page.keyboard.type('Keyboard walk visit');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split('/').pop()!;
  const heading = page.getByTestId('visit-heading');
  await expect(heading).toHaveText('Keyboard walk visit');
  await expect(heading).toBeFocused();
  await expectAccessible(page, 'new visit, focus on its heading');

  // ---- Record: Tab from the heading to Start recording; Alt+R ends ----
  await tabTo(page, page.getByRole('button', { name: 'Start recording' }), 'Start recording');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('connection-state')).toHaveText(/Connected/);
  await expect.poll(() => recorderFigure(page, 'recordedMs'), { timeout: 150_000 + visitMs(), intervals: [1000] }).toBeGreaterThan(visitMs() + 1000);
  await page.keyboard.press('Alt+R');
  // The End button is gone with the recorder: focus moves to the processing heading, then to the note's.
  await expect(page.getByRole('heading', { name: 'Preparing the note' })).toBeFocused();
  await expect(page.getByTestId('visit-status')).toHaveText('Note ready', { timeout: NOTE_READY_BOUND_MS });
  const noteHeading = page.getByRole('heading', { name: 'Note', exact: true, level: 2 });
  await expect(noteHeading).toBeFocused();
  await expectAccessible(page, 'note ready, focus on its heading');

  // ---- Edit a section: one polite region says it saved; the sections' own status text is not live ----
  const box = page.getByTestId('note-section').first().locator('textarea');
  const title = (await page.getByTestId('note-section').first().locator('h3').textContent())!;
  await tabTo(page, box, 'the first note section');
  await page.keyboard.press('Control+End');
  await page.keyboard.type(' Reviewed by keyboard.');
  await expect(page.getByTestId('note-section').first().getByTestId('save-state')).toHaveText('Saved');
  await expect(page.getByTestId('announcer')).toHaveText(`${title}: Saved`);
  const live = page.locator('[role="status"], [aria-live="polite"], [aria-live="assertive"]').filter({ hasText: /Saved/ });
  await expect(live).toHaveCount(1);
  expect(await page.getByTestId('save-state').evaluateAll((els) => els.filter((e) => e.closest('[role="status"],[aria-live]')).length)).toBe(0);

  // ---- Sign through the review with the keyboard alone ----
  await tabTo(page, page.getByRole('button', { name: 'Sign note' }), 'Sign note');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Review before signing' });
  await expect(dialog.getByTestId('review-count')).toBeVisible();
  const pending = dialog.locator('[data-testid="review-item"][data-decision="none"]');
  while ((await pending.count()) > 0) {
    const before = await pending.count();
    await tabTo(page, pending.first().getByRole('button', { name: 'Acknowledge' }), 'Acknowledge');
    await page.keyboard.press('Enter');
    await expect(pending).toHaveCount(before - 1);
  }
  await tabTo(page, dialog.getByRole('checkbox', { name: /I have reviewed this note/ }), 'the attestation');
  await page.keyboard.press('Space');
  await tabTo(page, dialog.getByRole('button', { name: 'Confirm and sign' }), 'Confirm and sign');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(box).toHaveAttribute('readonly', '');

  // ---- Search finds the visit by a word of its note (not of its complaint), marked in the list ----
  const content = await apiFromPage<{ summary: Array<{ content: string }> }>(page, `/api/v1/ambient/session/${sessionId}/content`);
  const text = content.summary.map((s) => s.content.toLowerCase()).join('\n');
  const term = ['lisinopril', 'amoxicillin', 'bronchitis', 'fever', 'cough'].find((w) => text.includes(w));
  expect(term, text).toBeDefined();
  await tabTo(page, page.getByRole('link', { name: "Today's visits" }), "Today's visits", true);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/visits$/);
  const search = page.getByRole('searchbox', { name: /Patient name, MRN or complaint/ });
  await tabTo(page, search, 'the search box');
  await page.keyboard.type(term!);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('visits-heading')).toHaveText(`Visits matching “${term}”`);
  const row = page.getByTestId('visit-row').filter({ hasText: 'Keyboard walk visit' });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('note-match').locator('mark').first()).toHaveText(new RegExp(`^${term}$`, 'i'));
  await expectAccessible(page, 'search inside notes');
});

test('at 390 px: limits checked as typed, the recorder in view under a long title, and nothing cut off sideways', async ({ page, state }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, state.users.clinician, '/visits/new');
  const complaint = page.getByRole('textbox', { name: 'Chief complaint' });
  // The contract allows 255 characters: one more is refused while typing, before any submit.
  const long = 'Shortness of breath on exertion with swelling of both ankles and waking at night short of breath, '.repeat(3).slice(0, 255).trimEnd().padEnd(255, 'x');
  await complaint.fill(`${long}y`);
  await expect(page.getByText('Must be at most 255 characters')).toBeVisible();
  await expect(complaint).toHaveAttribute('aria-invalid', 'true');
  await complaint.press('Backspace');
  await expect(page.getByText('Must be at most 255 characters')).toHaveCount(0);
  await expect(page.getByText(/255 of 255 characters/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Patient name' }).fill('Maximiliana Evangelina Konstantopoulou-Featherstonehaugh');
  await expect(page.getByText(/56 of 200 characters/)).toBeVisible();
  expect(await overflowX(page.locator('main'))).toBeLessThanOrEqual(0);
  await expectAccessible(page, '/visits/new at 390 px');
  await page.getByRole('button', { name: 'Create visit and go to recording' }).click();
  await expect(page).toHaveURL(/\/visits\/[0-9a-f-]{36}$/);
  const sessionId = page.url().split('/').pop()!;

  // ---- The recorder is in view without scrolling, and the page does not overflow sideways ----
  const start = page.getByRole('button', { name: 'Start recording' });
  await expect(start).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = (await start.boundingBox())!;
  expect(box.y + box.height, 'Start recording ends inside the first screen').toBeLessThanOrEqual(844);
  expect(await overflowX(page.locator('main'))).toBeLessThanOrEqual(0);
  expect(await overflowX(page.locator('html'))).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'visit at 390 px');
  await test.info().attach('visit-390', { body: await page.screenshot(), contentType: 'image/png' });

  // ---- The list fits: no sideways scroll in the table's region, and the whole row opens the visit ----
  await page.goto('/visits');
  const row = page.getByTestId('visit-row').filter({ hasText: 'Shortness of breath' });
  await expect(row).toBeVisible();
  expect(await overflowX(page.getByRole('region', { name: /^Visits on/ }))).toBeLessThanOrEqual(0);
  expect(await overflowX(page.locator('main'))).toBeLessThanOrEqual(0);
  expect(await overflowX(page.locator('html'))).toBeLessThanOrEqual(0);
  await expectAccessible(page, '/visits at 390 px');
  await test.info().attach('visits-390', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  // The row's link covers the whole row: what lies under the row's time is that link, and a tap there opens the visit.
  const t = (await row.locator('time').boundingBox())!;
  const [x, y] = [t.x + t.width / 2, t.y + t.height / 2];
  expect(await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('a')?.getAttribute('href'), [x, y])).toBe(`/visits/${sessionId}`);
  await page.mouse.click(x, y);
  await expect(page).toHaveURL(new RegExp(`/visits/${sessionId}$`));
});
