import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { AdminSessionDetail, AdminSessionList, ListAdminSessionsQuery } from '@/lib/contracts/admin';

export const listAdminSessions = defineContract({
  method: 'GET',
  path: '/api/admin/v1/sessions',
  summary: 'List ambient sessions (newest first; filter by partner, provider, status and creation time)',
  tags: ['Admin'],
  auth: 'admin',
  query: ListAdminSessionsQuery,
  responses: { 200: { description: 'sessions', schema: AdminSessionList } },
  errors: ['not_found'],
});

export const getAdminSession = defineContract({
  method: 'GET',
  path: '/api/admin/v1/sessions/{id}',
  summary: 'One session with its status history, recordings, transcript, content, structured data and webhook deliveries',
  tags: ['Admin'],
  auth: 'admin',
  params: z.object({ id: z.uuid({ message: 'must be a UUID' }) }),
  responses: { 200: { description: 'session', schema: AdminSessionDetail } },
  errors: ['not_found'],
});
