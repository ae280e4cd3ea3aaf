import crypto from 'node:crypto';
import { conflict } from '@/lib/errors';
import type { CreatePartnerRequest } from '@/lib/contracts/partners';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { partners } from '../../db/schema';
import { randomToken } from '../../auth/secret-box';
import { recordAudit } from '../audit/record-audit';
import { partnerDto } from './partner-dto';
import { assertWebhookUrlAllowed } from '../../webhooks/assert-webhook-url';

export async function createPartner(app: AppContext, input: CreatePartnerRequest, actor: string) {
  const partnerId = input.partner_id ?? `partner-${crypto.randomUUID()}`;
  assertWebhookUrlAllowed(app, input.webhook_url);
  const secret = randomToken('whsec_');
  // Creating partners is service admins' alone (requireAllTenants in its handler): every tenant's scope.
  const tdb = tenantDb(app, { kind: 'all' });
  const inserted = await tdb.insert(
    partners,
    {
      partnerId,
      name: input.name,
      type: input.type,
      accessLevel: input.access_level ?? 'FULL',
      issuer: input.issuer,
      audience: input.audience ?? null,
      jwksUri: input.jwks_uri ?? null,
      jwks: input.jwks ?? null,
      emailClaim: input.email_claim ?? 'email',
      providerIdPattern: input.provider_id_pattern ?? null,
      webhookUrl: input.webhook_url ?? null,
      notifyNoteSigned: input.notify_note_signed ?? false,
      clinic: input.clinic ?? null,
      webhookSecretEnc: app.secrets.seal(secret),
    },
    { onConflict: true },
  );
  const row = inserted[0];
  if (!row) throw conflict(`partner_id ${partnerId} already exists`);
  const dto = partnerDto(row);
  await recordAudit(tdb, { actor, action: 'partner.create', targetType: 'partner', targetId: partnerId, partnerId, after: dto });
  return { ...dto, webhook_secret: secret };
}
