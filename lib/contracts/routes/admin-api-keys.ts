import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { ApiKey, ApiKeyList, ApiKeyWithSecret, CreateApiKeyRequest } from '@/lib/contracts/admin';

export const listApiKeys = defineContract({
  method: 'GET',
  path: '/api/admin/v1/api-keys',
  summary: 'List admin API keys (never the keys themselves)',
  tags: ['Admin'],
  auth: 'admin',
  responses: { 200: { description: 'keys', schema: ApiKeyList } },
});

export const createApiKey = defineContract({
  method: 'POST',
  path: '/api/admin/v1/api-keys',
  summary: 'Create an admin API key (the key is shown only in this response)',
  tags: ['Admin'],
  auth: 'admin',
  body: CreateApiKeyRequest,
  status: 201,
  responses: { 201: { description: 'created', schema: ApiKeyWithSecret } },
  errors: ['forbidden', 'not_found'],
});

export const revokeApiKey = defineContract({
  method: 'DELETE',
  path: '/api/admin/v1/api-keys/{id}',
  summary: 'Revoke an admin API key (requests with it answer 401 from now on)',
  tags: ['Admin'],
  auth: 'admin',
  params: z.object({ id: z.uuid({ message: 'must be a UUID' }) }),
  responses: { 200: { description: 'the revoked key', schema: ApiKey } },
  errors: ['not_found'],
});
