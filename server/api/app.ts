/**
 * Routes the clinician web app needs beyond the partner API: a service token for the signed-in
 * clinician (the app is a first-party client of the v1 API), the provider's sessions of one day, and
 * storing an edited note section.
 */
import { z } from 'zod';
import { unauthorized } from '@/lib/errors';
import { ClinicianTokenResponse, SectionParams, SessionListQuery, SessionListResponse, UpdateSectionRequest } from '@/lib/contracts/clinician';
import { SummarySection } from '@/lib/contracts/sessions';
import { defineRoute, type RouteDef } from '../http/route';
import { mintClinicianToken } from '../domain/clinician-token/mint-clinician-token';
import { listProviderSessions } from '../domain/clinician-app/list-provider-sessions';
import { updateSectionContent } from '../domain/clinician-app/update-section-content';
import { errors } from './responses';

export const appRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/api/app/token',
    summary: 'Service token for the signed-in clinician (console session cookie)',
    description:
      'Authenticated by the console sign-in cookie, not by a service token. The token carries the provider linked to the clinician account and the partner chosen when the account was created; registering the provider with other partners never moves it.',
    tags: ['App'],
    auth: 'none',
    responses: { 200: { description: 'a one-hour service token', schema: ClinicianTokenResponse }, ...errors(401, 403) },
    handler: async ({ app }) => {
      // Loaded on demand: next-auth needs the Next request scope, which route generation and the
      // OpenAPI build do not have.
      const { currentConsoleUser } = await import('@/auth');
      const user = await currentConsoleUser();
      if (!user) throw unauthorized('sign in first');
      const body = await mintClinicianToken(app, user.id);
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/ambient/sessions',
    summary: "The provider's sessions created on one day",
    description: 'Newest first. `date` is a calendar day in the caller\'s time zone, given by `utc_offset_minutes` (minutes east of UTC).',
    tags: ['Sessions'],
    auth: 'service' as const,
    query: SessionListQuery,
    responses: { 200: { description: 'sessions', schema: SessionListResponse }, ...errors(400, 401, 403) },
    handler: async ({ app, auth, query }) => ({ sessions: await listProviderSessions(app, auth, query.date, query.utc_offset_minutes ?? 0) }),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/v1/ambient/session/{ambient_session_id}/content/sections/{loinc}',
    summary: 'Replace the text of one generated note section',
    tags: ['Sessions'],
    auth: 'service' as const,
    write: true,
    params: SectionParams,
    body: UpdateSectionRequest,
    responses: {
      200: { description: 'the updated section', schema: z.object({ section: SummarySection }) },
      ...errors(400, 401, 403, 404, 409, 413),
    },
    handler: async ({ app, auth, params, body }) => ({
      section: await updateSectionContent(app, auth, params.ambient_session_id, params.loinc, body.content),
    }),
  }),
];
