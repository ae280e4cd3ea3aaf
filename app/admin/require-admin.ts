import { requireConsoleUser } from '@/auth';

/**
 * Every admin page checks the role itself as well: layouts are not re-rendered on client navigation, so the
 * layout's check alone would not run for each page. A non-admin is redirected to the 403-rendering layout.
 */
export async function requireAdminPage(path: string) {
  const { user, allowed } = await requireConsoleUser(['service_admin', 'partner_admin'], path);
  return allowed ? user : null;
}
