/**
 * Browser-side security (issue 26): the post-login destination cannot leave the site, and every page runs
 * under a nonce-based Content-Security-Policy that blocks an injected inline script. fixtures.ts fails any
 * test whose page reports a CSP violation, so the whole suite checks that the policy breaks nothing.
 */
import { expect, loginAs, test } from './fixtures';

test('a hostile callbackUrl after sign-in lands on the site, not on another host', async ({ page, state }) => {
  const origin = new URL(state.baseUrl).origin;
  await page.goto('/login?callbackUrl=%2F%09%2Fevil.example%2Fx');
  await page.getByLabel('Email').fill(state.users.serviceAdmin.email);
  await page.getByLabel('Password').fill(state.users.serviceAdmin.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  expect(new URL(page.url()).origin).toBe(origin);
  // The refused callbackUrl falls back to the role's home, /admin, which shows its first page (/admin/partners).
  await expect(page).toHaveURL(/\/admin(\/partners)?$/);
  // Signed in already: the login page redirects at once, and stays on the site too.
  for (const hostile of ['%2F%09%2Fevil.example%2Fx', '%2F%5Cevil.example', '%2F%2Fevil.example', 'https%3A%2F%2Fevil.example', '%2F%0D%0A%2Fevil.example']) {
    await page.goto(`/login?callbackUrl=${hostile}`);
    expect(new URL(page.url()).origin, hostile).toBe(origin);
  }
});

test('pages carry a per-request script nonce, and an injected inline script does not run', async ({ page, state, cspViolations }) => {
  const first = await page.goto('/login');
  const csp = first!.headers()['content-security-policy'];
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce).toBeTruthy();
  expect(/script-src [^;]*/.exec(csp)?.[0]).not.toContain('unsafe-inline');
  expect(/connect-src [^;]*/.exec(csp)?.[0]).toBe(`connect-src 'self' ws://${new URL(state.baseUrl).host} wss://${new URL(state.baseUrl).host}`);
  // Next put the nonce on its own inline scripts; the next request gets another one.
  expect(await page.locator(`script[nonce]`).count()).toBeGreaterThan(0);
  const second = await page.goto('/login');
  expect(second!.headers()['content-security-policy']).not.toContain(`'nonce-${nonce}'`);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();

  const blocked = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; violated: string }>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve({ ran: Boolean((window as unknown as { pwned?: boolean }).pwned), violated: e.effectiveDirective }), { once: true });
        const s = document.createElement('script');
        s.textContent = 'window.pwned = true';
        document.body.appendChild(s);
      }),
  );
  expect(blocked).toEqual({ ran: false, violated: 'script-src-elem' });
  // The fixture saw it (so it would see one the policy caused elsewhere); this one was provoked, so it is cleared.
  await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
  cspViolations.length = 0;
});

test('the admin console and the API docs run under the policy', async ({ page, state }) => {
  await loginAs(page, state.users.serviceAdmin, '/admin/partners');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/docs');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
