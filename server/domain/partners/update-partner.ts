import { isDeepStrictEqual } from 'node:util';
import { eq } from 'drizzle-orm';
import { badRequest, forbidden } from '@/lib/errors';
import { partnerRuleViolation, type UpdatePartnerRequest } from '@/lib/contracts/partners';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { partners } from '../../db/schema';
import { invalidateServiceAuth } from '../../auth/authenticate-service';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from './get-partner';
import { partnerDto } from './partner-dto';
import { assertWebhookUrlAllowed } from '../../webhooks/assert-webhook-url';

/**
 * Access level, type and trust decide what a partner may do and whose tokens it accepts, and the name is how
 * the service knows it: service admins' call. A partner admin changes its webhook only.
 */
const SERVICE_ADMIN_FIELDS = ['name', 'type', 'access_level', 'issuer', 'audience', 'jwks_uri', 'jwks', 'email_claim', 'provider_id_pattern'] as const;

export async function updatePartner(app: AppContext, partnerId: string, input: UpdatePartnerRequest, admin: AdminPrincipal) {
  const current = await getPartnerRow(app, partnerId, admin);
  const before = partnerDto(current);
  if (admin.scope.kind !== 'all') {
    // A field sent with its current value is no change (the console's form sends every field back).
    const changed = SERVICE_ADMIN_FIELDS.find((f) => input[f] !== undefined && !isDeepStrictEqual(input[f], before[f]));
    if (changed) throw forbidden(`${changed}: only service admins change a partner's name, access level, type and trust settings`);
  }
  assertWebhookUrlAllowed(app, input.webhook_url);
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
  const tdb = tenantDb(app, admin);
  const [row] = await tdb.update(
    partners,
    {
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
      notifyNoteSigned: input.notify_note_signed ?? current.notifyNoteSigned,
      clinic: input.clinic !== undefined ? input.clinic : current.clinic,
      updatedAt: new Date(),
    },
    eq(partners.partnerId, partnerId),
  );
  const after = partnerDto(row!);
  invalidateServiceAuth(app);
  await recordAudit(tdb, { actor: admin.actor, action: 'partner.update', targetType: 'partner', targetId: partnerId, partnerId, before, after });
  return after;
}
