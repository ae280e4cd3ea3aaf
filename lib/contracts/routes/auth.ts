import { defineContract } from '@/lib/api/contract';
import { LoginRequest, LoginResponse, RegisterRequest } from '@/lib/contracts/auth';

export const register = defineContract({
  method: 'POST',
  path: '/api/v1/auth/register',
  summary: 'Register a provider for a partner',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'register',
  body: RegisterRequest,
  responses: { 201: { description: 'registered (no body)' } },
  errors: ['invalid_token', 'forbidden', 'not_found', 'conflict'],
});

export const login = defineContract({
  method: 'POST',
  path: '/api/v1/auth/login',
  summary: 'Log a provider in and obtain a one-hour service token',
  tags: ['Auth'],
  auth: 'none',
  rateLimit: 'login',
  body: LoginRequest,
  responses: { 200: { description: 'service token', schema: LoginResponse } },
  errors: ['invalid_token', 'forbidden', 'not_found'],
});
