import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { CreatePartnerRequest, Partner, PartnerId, PartnerList, PartnerWithSecret, UpdatePartnerRequest, WebhookSecret } from '@/lib/contracts/partners';

const PartnerParams = z.object({ partner_id: PartnerId });

export const createPartner = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners',
  summary: 'Create a partner (the webhook secret is shown only here)',
  tags: ['Admin'],
  auth: 'admin',
  body: CreatePartnerRequest,
  status: 201,
  responses: { 201: { description: 'created', schema: PartnerWithSecret } },
  errors: ['forbidden', 'conflict'],
});

export const listPartners = defineContract({
  method: 'GET',
  path: '/api/admin/v1/partners',
  summary: 'List partners',
  tags: ['Admin'],
  auth: 'admin',
  responses: { 200: { description: 'partners', schema: PartnerList } },
});

export const getPartner = defineContract({
  method: 'GET',
  path: '/api/admin/v1/partners/{partner_id}',
  summary: 'Get a partner',
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  responses: { 200: { description: 'partner', schema: Partner } },
  errors: ['not_found'],
});

export const updatePartner = defineContract({
  method: 'PATCH',
  path: '/api/admin/v1/partners/{partner_id}',
  summary: 'Update a partner',
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  body: UpdatePartnerRequest,
  responses: { 200: { description: 'partner', schema: Partner } },
  errors: ['forbidden', 'not_found'],
});

export const rotateWebhookSecret = defineContract({
  method: 'POST',
  path: '/api/admin/v1/partners/{partner_id}/webhook-secret',
  summary: 'Rotate the webhook signing secret (shown once)',
  tags: ['Admin'],
  auth: 'admin',
  params: PartnerParams,
  responses: { 200: { description: 'new secret', schema: WebhookSecret } },
  errors: ['not_found'],
});
