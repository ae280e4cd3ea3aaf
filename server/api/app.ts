/**
 * Routes the clinician web app needs beyond the partner API: a service token for the signed-in
 * clinician (the app is a first-party client of the v1 API), the provider's sessions of one day, and
 * storing an edited note section.
 */
import * as contract from '@/lib/contracts/routes/app';
import { bindRoute, type RouteDef } from '../http/route';
import { unauthorized } from '@/lib/errors';
import { mintClinicianToken } from '../domain/clinician-token/mint-clinician-token';
import { listProviderSessions } from '../domain/clinician-app/list-provider-sessions';
import { updateSectionContent } from '../domain/clinician-app/update-section-content';

export const appRoutes: RouteDef[] = [
  bindRoute(contract.getClinicianToken, async ({ app }) => {
    // Loaded on demand: next-auth needs Next's request scope, so this route is served from app/ (its
    // contract says servedBy 'next') and the node dispatcher never loads next-auth.
    const { currentConsoleUser } = await import('@/auth');
    const user = await currentConsoleUser();
    if (!user) throw unauthorized('sign in first');
    const body = await mintClinicianToken(app, user.id);
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    });
  }),
  bindRoute(contract.listProviderSessions, async ({ app, auth, query }) => ({ sessions: await listProviderSessions(app, auth, query.date, query.utc_offset_minutes ?? 0) })),
  bindRoute(contract.updateNoteSection, async ({ app, auth, params, body }) => ({
    section: await updateSectionContent(app, auth, params.ambient_session_id, params.loinc, body.content),
  })),
];
