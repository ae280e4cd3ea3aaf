import { AuditList, ListAuditQuery } from '@/lib/contracts/admin';
import { defineRoute } from '../http/route';
import { listAudit } from '../domain/audit/list-audit';
import { errors } from './responses';

export const adminAuditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/audit',
    summary: 'Audit log of admin changes (newest first), with before/after values',
    tags: ['Admin'],
    auth: 'admin',
    query: ListAuditQuery,
    responses: { 200: { description: 'entries', schema: AuditList }, ...errors(400, 401, 404) },
    handler: ({ app, query, auth }) => listAudit(app, query, auth),
  }),
];
