/**
 * Routes the clinician web app needs beyond the partner API: a service token for the signed-in
 * clinician (the app is a first-party client of the v1 API), the provider's sessions of one day, and
 * storing an edited note section.
 */
import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { ClinicianTokenResponse, SectionParams, SessionListQuery, SessionListResponse, UpdateSectionRequest } from '@/lib/contracts/clinician';
import { SummarySection } from '@/lib/contracts/session-content';

export const getClinicianToken = defineContract({
  method: 'GET',
  path: '/api/app/token',
  summary: 'Service token for the signed-in clinician (console session cookie)',
  description:
    'Authenticated by the console sign-in cookie, not by a service token. The token carries the provider linked to the clinician account and the partner chosen when the account was created; registering the provider with other partners never moves it.',
  tags: ['App'],
  auth: 'none',
  servedBy: 'next',
  responses: { 200: { description: 'a one-hour service token', schema: ClinicianTokenResponse } },
  errors: ['invalid_token', 'forbidden'],
});

export const listProviderSessions = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/sessions',
  summary: "The provider's sessions created on one day",
  description: 'Newest first. `date` is a calendar day in the caller\'s time zone, given by `utc_offset_minutes` (minutes east of UTC).',
  tags: ['Sessions'],
  auth: 'service',
  query: SessionListQuery,
  responses: { 200: { description: 'sessions', schema: SessionListResponse } },
  errors: ['forbidden'],
});

export const updateNoteSection = defineContract({
  method: 'PUT',
  path: '/api/v1/ambient/session/{ambient_session_id}/content/sections/{loinc}',
  summary: 'Replace the text of one generated note section',
  tags: ['Sessions'],
  auth: 'service',
  write: true,
  params: SectionParams,
  body: UpdateSectionRequest,
  responses: { 200: { description: 'the updated section', schema: z.object({ section: SummarySection }) } },
  errors: ['not_found', 'conflict'],
});
