import { defineContract } from '@/lib/api/contract';
import { PatchPreferencesRequest, PreferencesResponse } from '@/lib/contracts/preferences';

const tags = ['User preferences'];

export const getPreferences = defineContract({
  method: 'GET',
  path: '/api/v1/user/preferences',
  summary: "The provider's note preferences",
  tags,
  auth: 'service',
  responses: { 200: { description: 'preferences', schema: PreferencesResponse } },
});

export const updatePreferences = defineContract({
  method: 'PATCH',
  path: '/api/v1/user/preferences',
  summary: "Update the provider's note preferences (used by note generation)",
  description: 'Members given replace the stored ones; section_format is replaced as a whole list.',
  tags,
  auth: 'service',
  write: true,
  body: PatchPreferencesRequest,
  responses: { 200: { description: 'the stored preferences', schema: PreferencesResponse } },
});
