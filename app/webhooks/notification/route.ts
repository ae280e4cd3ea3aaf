import { getAppContext, type AppContext } from '@/server/context';
import { json } from '@/server/http/route';
import { MAX_BODY_BYTES, receiveNotification } from '@/server/webhooks/receiver';

export const dynamic = 'force-dynamic';

/**
 * Reference partner receiver (spec: POST /webhooks/notification). Verifies X-API-Key with
 * WEBHOOK_RECEIVER_SECRET and refuses generated-at more than 5 minutes off (replay protection).
 */
export async function POST(req: Request): Promise<Response> {
  let app: AppContext | undefined;
  try {
    app = getAppContext();
  } catch {
    return json({ code: 503, message: 'service is starting' }, 503);
  }
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return json({ code: 413, message: `request body is larger than ${MAX_BODY_BYTES} bytes` }, 413);
  const rawBody = Buffer.from(await req.arrayBuffer());
  const result = receiveNotification({
    secret: app.config.webhookReceiverSecret,
    generatedAt: req.headers.get('generated-at'),
    signature: req.headers.get('x-api-key'),
    rawBody,
  });
  if (result.accepted) {
    app.log.info({ kind: result.accepted.kind, id: result.accepted.id, value: result.accepted.value, webhookId: req.headers.get('webhook-id') }, 'reference receiver accepted a notification');
  }
  return json(result.body, result.status);
}

async function notAllowed(): Promise<Response> {
  return json({ code: 405, message: 'method not allowed; the receiver accepts POST' }, 405, { allow: 'POST' });
}
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
