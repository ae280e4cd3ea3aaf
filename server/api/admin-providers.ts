import { z } from 'zod';
import { AdminProvider, AdminProviderList, ListProvidersQuery, TestTrustRequest, TestTrustResult } from '@/lib/contracts/admin';
import { PartnerId } from '@/lib/contracts/partners';
import { defineRoute } from '../http/route';
import { listPartnerProviders } from '../domain/providers/list-partner-providers';
import { disableProvider } from '../domain/providers/disable-provider';
import { enableProvider } from '../domain/providers/enable-provider';
import { testPartnerTrust } from '../domain/partners/test-partner-trust';
import { errors } from './responses';

const PartnerParams = z.object({ partner_id: PartnerId });
const ProviderParams = z.object({ partner_id: PartnerId, provider_id: z.uuid({ message: 'must be a UUID' }) });

export const adminProviderRoutes = [
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/partners/{partner_id}/providers',
    summary: "List a partner's providers (search with q; page with next_cursor)",
    tags: ['Admin'],
    auth: 'admin',
    params: PartnerParams,
    query: ListProvidersQuery,
    responses: { 200: { description: 'providers', schema: AdminProviderList }, ...errors(400, 401, 404) },
    handler: ({ app, params, query, auth }) => listPartnerProviders(app, params.partner_id, query, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/partners/{partner_id}/providers/{provider_id}/disable',
    summary: 'Disable a provider: login answers 403 and its service tokens stop working',
    tags: ['Admin'],
    auth: 'admin',
    params: ProviderParams,
    responses: { 200: { description: 'provider', schema: AdminProvider }, ...errors(400, 401, 404) },
    handler: ({ app, params, auth }) => disableProvider(app, params.partner_id, params.provider_id, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/partners/{partner_id}/providers/{provider_id}/enable',
    summary: 'Enable a disabled provider',
    tags: ['Admin'],
    auth: 'admin',
    params: ProviderParams,
    responses: { 200: { description: 'provider', schema: AdminProvider }, ...errors(400, 401, 404) },
    handler: ({ app, params, auth }) => enableProvider(app, params.partner_id, params.provider_id, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/partners/{partner_id}/test-trust',
    summary: "Check a partner_token against the partner's trust settings, as register and login would",
    tags: ['Admin'],
    auth: 'admin',
    params: PartnerParams,
    body: TestTrustRequest,
    responses: { 200: { description: 'verdict', schema: TestTrustResult }, ...errors(400, 401, 404, 413) },
    handler: ({ app, params, body, auth }) => testPartnerTrust(app, params.partner_id, body.partner_token, auth),
  }),
];
