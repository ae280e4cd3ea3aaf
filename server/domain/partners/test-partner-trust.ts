import { isApiError } from '@/lib/errors';
import type { TestTrustResult } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { describeJwtError, verifyPartnerToken } from '../../auth/verify-partner-token';
import { tenantDb } from '../../db';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from './get-partner';

/** Verifies a pasted partner_token exactly as register and login would, and says why it would be refused. */
export async function testPartnerTrust(app: AppContext, partnerId: string, token: string, admin: AdminPrincipal): Promise<TestTrustResult> {
  const partner = await getPartnerRow(app, partnerId, admin);
  let result: TestTrustResult;
  try {
    const verified = await verifyPartnerToken(
      token,
      { issuer: partner.issuer, audience: partner.audience, jwksUri: partner.jwksUri, jwks: partner.jwks, emailClaim: partner.emailClaim },
      app.partnerKeys,
    );
    result = { valid: true, email: verified.email };
  } catch (err) {
    result = { valid: false, reason: isApiError(err) ? err.message : describeJwtError(err) };
  }
  // The token itself is a credential and is not recorded.
  await recordAudit(tenantDb(app, admin), { actor: admin.actor, action: 'partner.test_trust', targetType: 'partner', targetId: partnerId, partnerId, after: result });
  return result;
}
