import { badRequest } from '@/lib/errors';
import type { AppContext } from '../context';
import { webhookUrlProblem } from '../http/outbound-address';

/** Partner create/update: refuses a webhook URL that could never be delivered to (400 naming webhook_url). */
export function assertWebhookUrlAllowed(app: AppContext, url: string | null | undefined): void {
  if (!url) return;
  const problem = webhookUrlProblem(url, app.config.webhookAllowPrivate);
  if (problem) throw badRequest(`webhook_url: ${problem}`);
}
