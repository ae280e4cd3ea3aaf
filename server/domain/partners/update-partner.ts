import { eq } from 'drizzle-orm';
import { badRequest } from '@/lib/errors';
import { partnerRuleViolation, type UpdatePartnerRequest } from '@/lib/contracts/partners';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from './get-partner';
import { partnerDto } from './partner-dto';
import { assertWebhookUrlAllowed } from '../../webhooks/assert-webhook-url';

export async function updatePartner(app: AppContext, partnerId: string, input: UpdatePartnerRequest, admin: AdminPrincipal) {
  const current = await getPartnerRow(app, partnerId, admin);
  assertWebhookUrlAllowed(app, input.webhook_url);
  const before = partnerDto(current);
  // Switching between a JWKS URI and inline keys replaces the other source.
  const jwksUri = input.jwks_uri !== undefined ? input.jwks_uri : input.jwks != null ? null : before.jwks_uri;
  const jwks = input.jwks !== undefined ? input.jwks : input.jwks_uri != null ? null : before.jwks;
  const merged = {
    type: input.type ?? before.type,
    access_level: input.access_level ?? before.access_level,
    jwks_uri: jwksUri,
    jwks,
    provider_id_pattern: input.provider_id_pattern !== undefined ? input.provider_id_pattern : before.provider_id_pattern,
  };
  const violation = partnerRuleViolation(merged);
  if (violation) throw badRequest(`${violation.field}: ${violation.message}`);
  const [row] = await app.db
    .update(partners)
    .set({
      name: input.name ?? current.name,
      type: merged.type,
      accessLevel: merged.access_level,
      issuer: input.issuer ?? current.issuer,
      audience: input.audience !== undefined ? input.audience : current.audience,
      jwksUri: merged.jwks_uri,
      jwks: merged.jwks,
      emailClaim: input.email_claim ?? current.emailClaim,
      providerIdPattern: merged.provider_id_pattern,
      webhookUrl: input.webhook_url !== undefined ? input.webhook_url : current.webhookUrl,
      updatedAt: new Date(),
    })
    .where(eq(partners.partnerId, partnerId))
    .returning();
  const after = partnerDto(row!);
  invalidateServiceAuth(app);
  await recordAudit(app.db, { actor: admin.actor, action: 'partner.update', targetType: 'partner', targetId: partnerId, partnerId, before, after });
  return after;
}
