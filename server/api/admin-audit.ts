import * as contract from '@/lib/contracts/routes/admin-audit';
import { bindRoute } from '../http/route';
import { listAudit } from '../domain/audit/list-audit';

export const adminAuditRoutes = [
  bindRoute(contract.listAudit, ({ app, query, auth }) => listAudit(app, query, auth)),
];
