import { forbidden } from '@/lib/errors';
import { AdminUser, AdminUserList, CreateUserRequest, DemoSetup } from '@/lib/contracts/admin';
import { defineRoute, Reply } from '../http/route';
import { createUser } from '../domain/users/create-user';
import { listUsers } from '../domain/users/list-users';
import { setupDemo } from '../domain/demo/setup-demo';
import { errors } from './responses';

export const adminUserRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/users',
    summary: 'List console users',
    tags: ['Admin'],
    auth: 'admin',
    responses: { 200: { description: 'users', schema: AdminUserList }, ...errors(401) },
    handler: ({ app, auth }) => listUsers(app, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/users',
    summary: 'Create a console user (service admin, partner admin, or clinician linked to a provider)',
    description:
      'A clinician is linked to the provider named by provider_id, or to the provider with provider_email (default: the user email) linked to partner_id, which is created and linked when missing.',
    tags: ['Admin'],
    auth: 'admin',
    body: CreateUserRequest,
    status: 201,
    responses: { 201: { description: 'created', schema: AdminUser }, ...errors(400, 401, 403, 404, 409, 413) },
    handler: async ({ app, body, auth }) => new Reply(201, await createUser(app, body, auth)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/demo',
    summary: 'Set up (idempotently) the demo partner, demo clinician user and a ready partner_token',
    tags: ['Admin'],
    auth: 'admin',
    responses: { 200: { description: 'demo credentials', schema: DemoSetup }, ...errors(401, 403) },
    handler: ({ app, auth }) => {
      if (auth.role !== 'service_admin') throw forbidden('only service admins set up the demo');
      return setupDemo(app, auth);
    },
  }),
];
