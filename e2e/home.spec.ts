/**
 * The way in: a newcomer at `/` learns what the service is and finds "Sign in"; someone already signed in
 * is taken to their work (a clinician to today's visits, an admin to the console).
 */
import { expect, expectAccessible, loginAs, test } from './fixtures';

test('a signed-out visitor sees what the service is and signs in from the home page', async ({ page, state }) => {
  for (const width of [1024, 768, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Ambient clinical documentation', level: 1 })).toBeVisible();
    await expect(page.getByText(/listens to a clinician–patient visit/)).toBeVisible();
    await expectAccessible(page, `home at ${width}px`);
  }
  // The tab's icon is the app's own: without one every page's first load logged a 404 for /favicon.ico.
  const icon = await page.locator('link[rel="icon"]').first().getAttribute('href');
  expect(icon).toBeTruthy();
  const served = await page.request.get(icon!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/svg+xml');
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectAccessible(page, 'login at 375px');
  await page.getByLabel('Email').fill(state.users.clinician.email);
  await page.getByLabel('Password').fill(state.users.clinician.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/visits$/);
});

test('a signed-in clinician goes from the home page to today\'s visits', async ({ page, state }) => {
  await loginAs(page, state.users.clinician);
  await page.goto('/');
  await expect(page).toHaveURL(/\/visits$/);
  await expect(page.getByRole('heading', { name: "Today's visits" })).toBeVisible();
});

test('a signed-in admin goes from the home page to the console', async ({ page, state }) => {
  for (const user of [state.users.serviceAdmin, state.users.partnerAdmin]) {
    await page.context().clearCookies();
    await loginAs(page, user);
    await page.goto('/');
    await expect(page).toHaveURL(/\/admin(\/|$)/);
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveCount(0);
  }
});
