import type { Partner } from '@/lib/contracts/partners';
import { partners } from '../../db/schema';

export type PartnerRow = typeof partners.$inferSelect;

export function partnerDto(row: PartnerRow): Partner {
  return {
    partner_id: row.partnerId,
    name: row.name,
    type: row.type as Partner['type'],
    access_level: row.accessLevel as Partner['access_level'],
    issuer: row.issuer,
    audience: row.audience,
    jwks_uri: row.jwksUri,
    jwks: (row.jwks as Partner['jwks']) ?? null,
    email_claim: row.emailClaim,
    provider_id_pattern: row.providerIdPattern,
    webhook_url: row.webhookUrl,
    notify_note_signed: row.notifyNoteSigned,
    clinic: (row.clinic as Partner['clinic']) ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
