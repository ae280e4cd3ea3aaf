import * as contract from '@/lib/contracts/routes/admin-users';
import { bindRoute, StatusReply } from '../http/route';
import { createUser } from '../domain/users/create-user';
import { listUsers } from '../domain/users/list-users';
import { setupDemo } from '../domain/demo/setup-demo';
import { requireAllTenants } from '../domain/scope/require-all-tenants';

export const adminUserRoutes = [
  bindRoute(contract.listUsers, ({ app, auth }) => listUsers(app, auth)),
  bindRoute(contract.createUser, async ({ app, body, auth }) => new StatusReply(201, await createUser(app, body, auth))),
  bindRoute(contract.setupDemo, ({ app, auth }) => {
    requireAllTenants(auth.scope, 'set up the demo');
    return setupDemo(app, auth);
  }),
];
