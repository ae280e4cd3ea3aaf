import * as contract from '@/lib/contracts/routes/admin-api-keys';
import { bindRoute, StatusReply } from '../http/route';
import { createApiKey } from '../domain/api-keys/create-api-key';
import { listApiKeys } from '../domain/api-keys/list-api-keys';
import { revokeApiKey } from '../domain/api-keys/revoke-api-key';

export const adminApiKeyRoutes = [
  bindRoute(contract.listApiKeys, ({ app, auth }) => listApiKeys(app, auth)),
  bindRoute(contract.createApiKey, async ({ app, body, auth }) => new StatusReply(201, await createApiKey(app, body, auth))),
  bindRoute(contract.revokeApiKey, ({ app, params, auth }) => revokeApiKey(app, params.id, auth)),
];
