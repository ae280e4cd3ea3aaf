/** Signing through the review dialog (issue 27), for specs whose subject is not the review itself. */
import { expect, type Page } from '@playwright/test';

/** Sign note, acknowledge every item the review lists, confirm the attestation, and wait for the dialog to close. */
export async function signThroughReview(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign note' }).click();
  const dialog = page.getByRole('dialog', { name: 'Review before signing' });
  await expect(dialog.getByTestId('review-count')).toBeVisible();
  const pending = dialog.locator('[data-testid="review-item"][data-decision="none"]');
  while ((await pending.count()) > 0) await pending.first().getByRole('button', { name: 'Acknowledge' }).click();
  await dialog.getByRole('checkbox', { name: /I have reviewed this note/ }).check();
  await dialog.getByRole('button', { name: 'Confirm and sign' }).click();
  await expect(dialog).toBeHidden();
}
