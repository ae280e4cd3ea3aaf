import { defineContract } from '@/lib/api/contract';
import { AdminUser, AdminUserList, CreateUserRequest, DemoSetup } from '@/lib/contracts/admin';

export const listUsers = defineContract({
  method: 'GET',
  path: '/api/admin/v1/users',
  summary: 'List console users',
  tags: ['Admin'],
  auth: 'admin',
  responses: { 200: { description: 'users', schema: AdminUserList } },
});

export const createUser = defineContract({
  method: 'POST',
  path: '/api/admin/v1/users',
  summary: 'Create a console user (service admin, partner admin, or clinician linked to a provider)',
  description:
    'A clinician is linked to the provider named by provider_id, or to the provider with provider_email (default: the user email) linked to partner_id, which is created and linked when missing.',
  tags: ['Admin'],
  auth: 'admin',
  body: CreateUserRequest,
  status: 201,
  responses: { 201: { description: 'created', schema: AdminUser } },
  errors: ['forbidden', 'not_found', 'conflict'],
});

export const setupDemo = defineContract({
  method: 'POST',
  path: '/api/admin/v1/demo',
  summary: 'Set up (idempotently) the demo partner, demo clinician user and a ready partner_token',
  tags: ['Admin'],
  auth: 'admin',
  responses: { 200: { description: 'demo credentials', schema: DemoSetup } },
  errors: ['forbidden'],
});
