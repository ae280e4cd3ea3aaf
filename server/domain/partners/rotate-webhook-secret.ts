import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { partners } from '../../db/schema';
import { randomToken } from '../../auth/secret-box';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from './get-partner';

export async function rotateWebhookSecret(app: AppContext, partnerId: string, admin: AdminPrincipal) {
  await getPartnerRow(app, partnerId, admin);
  const secret = randomToken('whsec_');
  const tdb = tenantDb(app, admin);
  await tdb.update(partners, { webhookSecretEnc: app.secrets.seal(secret), updatedAt: new Date() }, eq(partners.partnerId, partnerId));
  await recordAudit(tdb, { actor: admin.actor, action: 'partner.rotate_webhook_secret', targetType: 'partner', targetId: partnerId, partnerId });
  return { webhook_secret: secret };
}
