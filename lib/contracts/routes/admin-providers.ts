import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { AdminProvider, AdminProviderList, ListProvidersQuery, TestTrustRequest, TestTrustResult } from '@/lib/contracts/admin';
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
