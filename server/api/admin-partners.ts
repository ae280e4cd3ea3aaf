import * as contract from '@/lib/contracts/routes/admin-partners';
import { bindRoute, StatusReply } from '../http/route';
import { createPartner } from '../domain/partners/create-partner';
import { listPartners } from '../domain/partners/list-partners';
import { getPartnerRow } from '../domain/partners/get-partner';
import { partnerDto } from '../domain/partners/partner-dto';
import { updatePartner } from '../domain/partners/update-partner';
import { rotateWebhookSecret } from '../domain/partners/rotate-webhook-secret';
import { requireAllTenants } from '../domain/scope/require-all-tenants';

export const adminPartnerRoutes = [
  bindRoute(contract.createPartner, async ({ app, body, auth }) => {
    requireAllTenants(auth.scope, 'create partners');
    return new StatusReply(201, await createPartner(app, body, auth.actor));
  }),
  bindRoute(contract.listPartners, async ({ app, auth }) => ({ partners: await listPartners(app, auth) })),
  bindRoute(contract.getPartner, async ({ app, params, auth }) => partnerDto(await getPartnerRow(app, params.partner_id, auth))),
  bindRoute(contract.updatePartner, ({ app, params, body, auth }) => updatePartner(app, params.partner_id, body, auth)),
  bindRoute(contract.rotateWebhookSecret, ({ app, params, auth }) => rotateWebhookSecret(app, params.partner_id, auth)),
];
