import { defineContract } from '@/lib/api/contract';
import { AuditList, ListAuditQuery } from '@/lib/contracts/admin';

export const listAudit = defineContract({
  method: 'GET',
  path: '/api/admin/v1/audit',
  summary: 'Audit log of admin changes (newest first), with before/after values',
  tags: ['Admin'],
  auth: 'admin',
  query: ListAuditQuery,
  responses: { 200: { description: 'entries', schema: AuditList } },
  errors: ['not_found'],
});
