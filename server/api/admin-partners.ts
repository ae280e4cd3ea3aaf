import { z } from 'zod';
import { CreatePartnerRequest, Partner, PartnerId, PartnerList, PartnerWithSecret, UpdatePartnerRequest, WebhookSecret } from '@/lib/contracts/partners';
import { forbidden } from '@/lib/errors';
import { defineRoute, Reply } from '../http/route';
import { createPartner } from '../domain/partners/create-partner';
import { listPartners } from '../domain/partners/list-partners';
import { getPartnerRow } from '../domain/partners/get-partner';
import { partnerDto } from '../domain/partners/partner-dto';
import { updatePartner } from '../domain/partners/update-partner';
import { rotateWebhookSecret } from '../domain/partners/rotate-webhook-secret';
import { errors } from './responses';

const PartnerParams = z.object({ partner_id: PartnerId });

export const adminPartnerRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/partners',
    summary: 'Create a partner (the webhook secret is shown only here)',
    tags: ['Admin'],
    auth: 'admin',
    body: CreatePartnerRequest,
    status: 201,
    responses: { 201: { description: 'created', schema: PartnerWithSecret }, ...errors(400, 401, 403, 409, 413) },
    handler: async ({ app, body, auth }) => {
      if (auth.role !== 'service_admin') throw forbidden('only service admins create partners');
      return new Reply(201, await createPartner(app, body, auth.actor));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/partners',
    summary: 'List partners',
    tags: ['Admin'],
    auth: 'admin',
    responses: { 200: { description: 'partners', schema: PartnerList }, ...errors(401) },
    handler: async ({ app, auth }) => ({ partners: await listPartners(app, auth) }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/admin/v1/partners/{partner_id}',
    summary: 'Get a partner',
    tags: ['Admin'],
    auth: 'admin',
    params: PartnerParams,
    responses: { 200: { description: 'partner', schema: Partner }, ...errors(400, 401, 404) },
    handler: async ({ app, params, auth }) => partnerDto(await getPartnerRow(app, params.partner_id, auth)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/admin/v1/partners/{partner_id}',
    summary: 'Update a partner',
    tags: ['Admin'],
    auth: 'admin',
    params: PartnerParams,
    body: UpdatePartnerRequest,
    // Partner admins may change only their webhook: access level, type and trust settings answer 403.
    responses: { 200: { description: 'partner', schema: Partner }, ...errors(400, 401, 403, 404, 413) },
    handler: ({ app, params, body, auth }) => updatePartner(app, params.partner_id, body, auth),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/admin/v1/partners/{partner_id}/webhook-secret',
    summary: 'Rotate the webhook signing secret (shown once)',
    tags: ['Admin'],
    auth: 'admin',
    params: PartnerParams,
    responses: { 200: { description: 'new secret', schema: WebhookSecret }, ...errors(400, 401, 404) },
    handler: ({ app, params, auth }) => rotateWebhookSecret(app, params.partner_id, auth),
  }),
];
