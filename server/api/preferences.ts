import { PatchPreferencesRequest, PreferencesResponse } from '@/lib/contracts/sessions';
import { defineRoute } from '../http/route';
import { getPreferences } from '../domain/preferences/get-preferences';
import { updatePreferences } from '../domain/preferences/update-preferences';
import { errors } from './responses';

const tags = ['User preferences'];

export const preferenceRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/user/preferences',
    summary: "The provider's note preferences",
    tags,
    auth: 'service',
    responses: { 200: { description: 'preferences', schema: PreferencesResponse }, ...errors(401) },
    handler: ({ app, auth }) => getPreferences(app, auth.providerId),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/v1/user/preferences',
    summary: "Update the provider's note preferences (used by note generation)",
    description: 'Members given replace the stored ones; section_format is replaced as a whole list.',
    tags,
    auth: 'service',
    write: true,
    body: PatchPreferencesRequest,
    responses: { 200: { description: 'the stored preferences', schema: PreferencesResponse }, ...errors(400, 401, 403, 413) },
    handler: ({ app, auth, body }) => updatePreferences(app, auth.providerId, body),
  }),
];
