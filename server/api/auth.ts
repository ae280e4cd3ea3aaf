import { LoginRequest, LoginResponse, RegisterRequest } from '@/lib/contracts/auth';
import { defineRoute, Reply } from '../http/route';
import { registerProvider } from '../domain/providers/register-provider';
import { loginProvider } from '../domain/providers/login-provider';
import { errors } from './responses';

export const authRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/auth/register',
    summary: 'Register a provider for a partner',
    tags: ['Auth'],
    auth: 'none',
    rateLimit: 'register',
    body: RegisterRequest,
    responses: { 201: { description: 'registered (no body)' }, ...errors(400, 401, 403, 404, 409, 413, 429) },
    handler: async ({ app, body }) => {
      await registerProvider(app, body);
      return new Reply(201);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/auth/login',
    summary: 'Log a provider in and obtain a one-hour service token',
    tags: ['Auth'],
    auth: 'none',
    rateLimit: 'login',
    body: LoginRequest,
    responses: { 200: { description: 'service token', schema: LoginResponse }, ...errors(400, 401, 403, 404, 413, 429) },
    handler: ({ app, body }) => loginProvider(app, body),
  }),
];
