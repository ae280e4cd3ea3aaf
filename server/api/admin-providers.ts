import * as contract from '@/lib/contracts/routes/admin-providers';
import { bindRoute, StatusReply } from '../http/route';
import { createPartnerProvider } from '../domain/providers/create-partner-provider';
import { listPartnerProviders } from '../domain/providers/list-partner-providers';
import { disableProvider } from '../domain/providers/disable-provider';
import { enableProvider } from '../domain/providers/enable-provider';
import { testPartnerTrust } from '../domain/partners/test-partner-trust';

export const adminProviderRoutes = [
  bindRoute(contract.listPartnerProviders, ({ app, params, query, auth }) => listPartnerProviders(app, params.partner_id, query, auth)),
  bindRoute(contract.createPartnerProvider, async ({ app, params, body, auth }) => new StatusReply(201, await createPartnerProvider(app, params.partner_id, body, auth))),
  bindRoute(contract.disableProvider, ({ app, params, auth }) => disableProvider(app, params.partner_id, params.provider_id, auth)),
  bindRoute(contract.enableProvider, ({ app, params, auth }) => enableProvider(app, params.partner_id, params.provider_id, auth)),
  bindRoute(contract.testPartnerTrust, ({ app, params, body, auth }) => testPartnerTrust(app, params.partner_id, body.partner_token, auth)),
];
