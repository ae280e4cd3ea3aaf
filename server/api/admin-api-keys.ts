import { z } from 'zod';
import { ApiKey, ApiKeyList, ApiKeyWithSecret, CreateApiKeyRequest } from '@/lib/contracts/admin';
import { defineRoute, Reply } from '../http/route';
import { createApiKey } from '../domain/api-keys/create-api-key';
import { listApiKeys } from '../domain/api-keys/list-api-keys';
import { revokeApiKey } from '../domain/api-keys/revoke-api-key';
import { errors } from './responses';

export const adminApiKeyRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/api-keys',
    summary: 'List admin API keys (never the keys themselves)',
    tags: ['Admin'],
    auth: 'admin',
    responses: { 200: { description: 'keys', schema: ApiKeyList }, ...errors(401) },
    handler: ({ app, auth }) => listApiKeys(app, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/api-keys',
    summary: 'Create an admin API key (the key is shown only in this response)',
    tags: ['Admin'],
    auth: 'admin',
    body: CreateApiKeyRequest,
    status: 201,
    responses: { 201: { description: 'created', schema: ApiKeyWithSecret }, ...errors(400, 401, 403, 404, 413) },
    handler: async ({ app, body, auth }) => new Reply(201, await createApiKey(app, body, auth)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/admin/v1/api-keys/{id}',
    summary: 'Revoke an admin API key (requests with it answer 401 from now on)',
    tags: ['Admin'],
    auth: 'admin',
    params: z.object({ id: z.uuid({ message: 'must be a UUID' }) }),
    responses: { 200: { description: 'the revoked key', schema: ApiKey }, ...errors(400, 401, 404) },
    handler: ({ app, params, auth }) => revokeApiKey(app, params.id, auth),
  }),
];
