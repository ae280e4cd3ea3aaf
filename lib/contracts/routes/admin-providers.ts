import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { AdminProvider, AdminProviderList, CreateProviderRequest, ListProvidersQuery, TestTrustRequest, TestTrustResult } from '@/lib/contracts/admin';
import { PartnerId } from '@/lib/contracts/partners';

const PartnerParams = z.object({ partner_id: PartnerId });
const ProviderParams = z.object({ partner_id: PartnerId, provider_id: z.uuid({ message: 'must be a UUID' }) });

export const listPartnerProviders = defineContract({
  method: 'GET',
  path: '/api/admin/v1/partners/{partner_id}/providers',
  summary: "List a partner's providers (search with q; page with next_cursor)",
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  query: ListProvidersQuery,
  responses: { 200: { description: 'providers', schema: AdminProviderList } },
  errors: ['not_found'],
});

export const createPartnerProvider = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/providers',
  summary: 'Add a provider to a partner, as register would, without a partner_token',
  description:
    'Creates the provider and links it to the partner. STANDARD partners identify providers by email; BEARER and SINGLE_AUTH_TOKEN partners by provider_id, which must match the partner\'s pattern. A provider already linked to the partner is a 409. A provider known through another partner is linked by a service admin; a partner admin gets a 409.',
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  body: CreateProviderRequest,
  status: 201,
  responses: { 201: { description: 'the provider as listed', schema: AdminProvider } },
  errors: ['not_found', 'conflict'],
});

export const disableProvider = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/providers/{provider_id}/disable',
  summary: 'Disable a provider: login answers 403 and its service tokens stop working',
  tags: ['Admin'],
  auth: 'admin',
  params: ProviderParams,
  responses: { 200: { description: 'provider', schema: AdminProvider } },
  errors: ['not_found'],
});

export const enableProvider = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/providers/{provider_id}/enable',
  summary: 'Enable a disabled provider',
  tags: ['Admin'],
  auth: 'admin',
  params: ProviderParams,
  responses: { 200: { description: 'provider', schema: AdminProvider } },
  errors: ['not_found'],
});

export const testPartnerTrust = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/test-trust',
  summary: "Check a partner_token against the partner's trust settings, as register and login would",
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  body: TestTrustRequest,
  responses: { 200: { description: 'verdict', schema: TestTrustResult } },
  errors: ['not_found'],
});
