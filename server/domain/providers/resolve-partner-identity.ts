import { eq } from 'drizzle-orm';
import { badRequest, unauthorized } from '@/lib/errors';
import type { AppContext } from '../../context';
import { partners } from '../../db/schema';
import { verifyPartnerToken } from '../../auth/verify-partner-token';
import { providerIdMatches } from '@/lib/provider-id-pattern';
import { systemDb } from '../../db';

export interface PartnerIdentity {
  partner: typeof partners.$inferSelect;
  email: string;
  /** Identity of the provider: the token's email for STANDARD partners, else the partner's provider_id. */
  identityKey: string;
  partnerProviderId: string | null;
}


/** Verifies the partner and its token, then applies the partner type's provider identity rules. */
export async function resolvePartnerIdentity(
  app: AppContext,
  input: { partner_id: string; partner_token: string; provider_id?: string },
): Promise<PartnerIdentity> {
  const rows = await systemDb(app, 'partner login: reads the partner named by the token it verifies').select().from(partners).where(eq(partners.partnerId, input.partner_id)).limit(1);
  const partner = rows[0];
  if (!partner) throw unauthorized('partner_id is not a known partner');
  const verified = await verifyPartnerToken(
    input.partner_token,
    { issuer: partner.issuer, audience: partner.audience, jwksUri: partner.jwksUri, jwks: partner.jwks, emailClaim: partner.emailClaim },
    app.partnerKeys,
  );
  if (partner.type === 'STANDARD') {
    return { partner, email: verified.email, identityKey: `email:${verified.email}`, partnerProviderId: null };
  }
  if (!input.provider_id) throw badRequest(`provider_id: is required for ${partner.type} partners`);
  if (!partner.providerIdPattern || !providerIdMatches(partner.providerIdPattern, input.provider_id)) {
    throw badRequest('provider_id: does not match the format agreed for this partner');
  }
  // provider_id formats are agreed per partner, so the same string at two partners may be two people.
  return { partner, email: verified.email, identityKey: `pid:${partner.partnerId}:${input.provider_id}`, partnerProviderId: input.provider_id };
}
