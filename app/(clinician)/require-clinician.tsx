import { requireConsoleUser, type ConsoleUser } from '@/auth';
import { Forbidden } from '@/components/ui/Forbidden';

/**
 * Every clinician page runs this on the server: signed out → /login (back here afterwards); another role
 * → the 403 view. Returns the user, or the element to render instead.
 */
export async function requireClinician(path: string): Promise<{ user: ConsoleUser; denied: null } | { user: null; denied: React.ReactElement }> {
  const { user, allowed } = await requireConsoleUser(['clinician'], path);
  if (!allowed) return { user: null, denied: <Forbidden role={user.role} home={user.role === 'clinician' ? '/visits' : '/admin'} /> };
  return { user, denied: null };
}
