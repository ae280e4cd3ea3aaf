/**
 * The console walk of issue 31 item 8 in Chromium: a service admin adds a provider to a partner, sees the
 * clinician's Last login after they sign in, and filters sessions by provider name or email and by status;
 * a partner admin is shown only what it may change on its partner (the webhook), not the trust settings
 * or the name.
 */
import crypto from 'node:crypto';
import { expect, expectAccessible, loginAs, test } from './fixtures';

test.describe.configure({ mode: 'serial' });

test('a service admin adds a provider from the Providers page', async ({ page, state }) => {
  const tag = crypto.randomUUID().slice(0, 6);
  const email = `dr.added.${tag}@clinic.e2e.test`;
  await loginAs(page, state.users.serviceAdmin, `/admin/partners/${state.partner.partnerId}/providers`);
  await page.getByRole('button', { name: 'Add provider' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a provider' });
  await expect(dialog).toBeVisible();
  // The contract's messages, next to their fields, before anything is sent.
  await dialog.getByRole('textbox', { name: 'Email' }).fill('not an email');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText('must be an email address')).toBeVisible();
  await expect(dialog.getByText('must not be empty')).toBeVisible();
  await expectAccessible(page, 'add provider dialog');

  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Dr Added ${tag}`);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('combobox', { name: 'Specialty' }).selectOption('CARDIOLOGY');
  await dialog.getByRole('textbox', { name: 'Organisation' }).fill('org-e2e-heart');
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(`Dr Added ${tag}`) });
  await expect(row).toContainText(email);
  await expect(row).toContainText('CARDIOLOGY');
  await expect(row).toContainText('org-e2e-heart');

  // The same provider again: the server's 409 is shown at the Email field.
  await page.getByRole('button', { name: 'Add provider' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Dr Added ${tag}`);
  await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
  await dialog.getByRole('button', { name: 'Add provider' }).click();
  await expect(dialog.getByText(/already registered with partner/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test("a clinician's sign-in shows as the provider's Last login, and sessions filter by provider name or email and status", async ({ page, state }) => {
  const clinician = state.users.clinician;
  await loginAs(page, clinician, '/visits');
  // A visit of theirs for the session filter, created as the app creates one.
  const created = await page.evaluate(async () => {
    const t = await (await fetch('/api/app/token')).json();
    const r = await fetch('/api/v1/ambient/session/create', { method: 'POST', headers: { sdp_service_token: t.service_token, 'content-type': 'application/json' }, body: '{}' });
    return (await r.json()).ambient_session_id as string;
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);

  await loginAs(page, state.users.serviceAdmin, `/admin/partners/${state.partner.partnerId}/providers`);
  await page.getByLabel('Search providers').fill(clinician.provider_email!);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('row').filter({ hasText: clinician.provider_email! });
  await expect(row).toHaveCount(1);
  const lastLogin = row.getByRole('cell').nth(7);
  await expect(lastLogin).not.toHaveText('—');
  await expect(lastLogin.locator('time')).toHaveCount(1);

  await page.goto('/admin/sessions');
  const filter = page.getByRole('form', { name: 'Session filters' });
  await filter.getByRole('textbox', { name: 'Provider name or email' }).fill(clinician.provider_email!.toUpperCase());
  await filter.getByRole('combobox', { name: 'Status' }).selectOption('created');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/provider=DR\.E2E/i);
  await expect(page.getByRole('link', { name: created })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasNotText: clinician.provider_email! }).filter({ has: page.getByRole('cell') })).toHaveCount(0);
  await expectAccessible(page, 'sessions filtered by provider');
  await filter.getByRole('combobox', { name: 'Status' }).selectOption('completed');
  await filter.getByRole('textbox', { name: 'Provider name or email' }).fill('nobody-has-this-name');
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No sessions match.')).toBeVisible();
});

test('a partner admin sees only what it may change on its partner', async ({ page, state }) => {
  await loginAs(page, state.users.partnerAdmin, `/admin/partners/${state.partner.partnerId}`);
  await expect(page.getByRole('heading', { name: 'E2E Clinic', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Webhook' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Trust settings' })).toHaveCount(0);
  await expect(page.getByText('JWKS URI')).toHaveCount(0);
  await expect(page.getByText('Email claim')).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit webhook' }).click();
  const form = page.getByRole('form', { name: 'Edit webhook' });
  await expect(form.getByRole('textbox', { name: 'Webhook URL' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Access level' })).toHaveCount(0);
  await expectAccessible(page, 'partner admin edits its webhook');
  await form.getByRole('checkbox', { name: /NOTE_SIGNED/ }).check();
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('form', { name: 'Edit webhook' })).toHaveCount(0);
  await expect(page.getByText('On (NOTE_SIGNED)')).toBeVisible();
  // Put it back for the other specs, which share this partner.
  await page.getByRole('button', { name: 'Edit webhook' }).click();
  await page.getByRole('form', { name: 'Edit webhook' }).getByRole('checkbox', { name: /NOTE_SIGNED/ }).uncheck();
  await page.getByRole('form', { name: 'Edit webhook' }).getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Signed-note notification')).toBeVisible();
  await expect(page.getByText('On (NOTE_SIGNED)')).toHaveCount(0);

  // A service admin still sees and edits the trust settings.
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The sign-out is a server action: signing in again before it lands lets its cookie-clearing reply win.
  await expect(page).toHaveURL(/\/login/);
  await loginAs(page, state.users.serviceAdmin, `/admin/partners/${state.partner.partnerId}`);
  await expect(page.getByRole('heading', { name: 'Trust settings' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit webhook' })).toHaveCount(0);
});
