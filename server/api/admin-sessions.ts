import * as contract from '@/lib/contracts/routes/admin-sessions';
import { bindRoute } from '../http/route';
import { listAdminSessions } from '../domain/admin-sessions/list-admin-sessions';
import { getAdminSession } from '../domain/admin-sessions/get-admin-session';

export const adminSessionRoutes = [
  bindRoute(contract.listAdminSessions, ({ app, query, auth }) => listAdminSessions(app, query, auth)),
  bindRoute(contract.getAdminSession, ({ app, params, auth }) => getAdminSession(app, params.id, auth)),
];
