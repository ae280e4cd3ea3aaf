import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { partners } from '../../db/schema';
import { randomToken } from '../../auth/secret-box';
import { recordAudit } from '../audit/record-audit';
import { getPartnerRow } from './get-partner';

export async function rotateWebhookSecret(app: AppContext, partnerId: string, admin: AdminPrincipal) {
  await getPartnerRow(app, partnerId, admin);
  const secret = randomToken('whsec_');
  await app.db
    .update(partners)
    .set({ webhookSecretEnc: app.secrets.seal(secret), updatedAt: new Date() })
    .where(eq(partners.partnerId, partnerId));
  await recordAudit(app.db, { actor: admin.actor, action: 'partner.rotate_webhook_secret', targetType: 'partner', targetId: partnerId, partnerId });
  return { webhook_secret: secret };
}
