import { z } from 'zod';
import { AdminSessionDetail, AdminSessionList, ListAdminSessionsQuery } from '@/lib/contracts/admin';
import { defineRoute } from '../http/route';
import { listAdminSessions } from '../domain/admin-sessions/list-admin-sessions';
import { getAdminSession } from '../domain/admin-sessions/get-admin-session';
import { errors } from './responses';

export const adminSessionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/sessions',
    summary: 'List ambient sessions (newest first; filter by partner, provider, status and creation time)',
    tags: ['Admin'],
    auth: 'admin',
    query: ListAdminSessionsQuery,
    responses: { 200: { description: 'sessions', schema: AdminSessionList }, ...errors(400, 401, 404) },
    handler: ({ app, query, auth }) => listAdminSessions(app, query, auth),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/sessions/{id}',
    summary: 'One session with its status history, recordings, transcript, content, structured data and webhook deliveries',
    tags: ['Admin'],
    auth: 'admin',
    params: z.object({ id: z.uuid({ message: 'must be a UUID' }) }),
    responses: { 200: { description: 'session', schema: AdminSessionDetail }, ...errors(400, 401, 404) },
    handler: ({ app, params, auth }) => getAdminSession(app, params.id, auth),
  }),
];
