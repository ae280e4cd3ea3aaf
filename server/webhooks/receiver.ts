import { verifyWebhookSignature } from './sign';

/** generated-at further than this from the receiver's clock is refused, so a captured request cannot be replayed later. */
export const MAX_SKEW_MS = 5 * 60 * 1000;
export const MAX_BODY_BYTES = 1024 * 1024;

export type NotificationKind = 'session.success' | 'session.failure' | 'ckg';

export interface ReceiverResult {
  status: number;
  body: { code?: number; message: string };
  /** What was accepted, for the caller's log line (identifiers only). */
  accepted?: { kind: NotificationKind; id: string | null; value: string };
}

const error = (status: number, message: string): ReceiverResult => ({ status, body: { code: status, message } });

/**
 * The reference receiver's rules (spec, Events and Authentication rule 7): signature first (401),
 * then the body (400 for malformed JSON or a payload that is neither a known status nor a known state),
 * then 200. A framework-free function so the rules are tested directly and the route stays thin.
 */
export function receiveNotification(input: {
  secret: string | undefined;
  generatedAt: string | null;
  signature: string | null;
  rawBody: Buffer;
  now?: number;
}): ReceiverResult {
  if (!input.secret) return error(503, 'the reference receiver is not configured: set WEBHOOK_RECEIVER_SECRET');
  if (input.rawBody.length > MAX_BODY_BYTES) return error(413, `request body is larger than ${MAX_BODY_BYTES} bytes`);
  if (!input.signature) return error(401, 'invalid signature: X-API-Key header is missing');
  if (!input.generatedAt) return error(401, 'invalid signature: generated-at header is missing');
  if (!/^\d{1,16}$/.test(input.generatedAt)) return error(401, 'invalid signature: generated-at must be a Unix time in milliseconds');
  if (!verifyWebhookSignature(input.secret, input.generatedAt, input.rawBody, input.signature)) {
    return error(401, 'invalid signature: X-API-Key does not match the HMAC-SHA256 of generated-at:body');
  }
  // Checked after the signature so an unauthenticated caller learns nothing about the receiver's clock.
  if (Math.abs((input.now ?? Date.now()) - Number(input.generatedAt)) > MAX_SKEW_MS) {
    return error(401, 'invalid signature: generated-at is more than 5 minutes from the receiver clock');
  }

  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(input.rawBody));
  } catch {
    return error(400, 'invalid request: body is not valid JSON');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return error(400, 'invalid request: body must be a JSON object');
  const p = payload as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);

  if (p.status === 'SUCCESS' || p.status === 'FAILURE') {
    const kind: NotificationKind = p.status === 'SUCCESS' ? 'session.success' : 'session.failure';
    return { status: 200, body: { message: 'notification accepted' }, accepted: { kind, id: str(p.session_id), value: p.status } };
  }
  if (p.state === 'COMPLETED' || p.state === 'FAILED' || p.state === 'ABORTED') {
    return { status: 200, body: { message: 'notification accepted' }, accepted: { kind: 'ckg', id: str(p.transaction_id), value: p.state } };
  }
  if ('status' in p) return error(400, `invalid request: unknown status ${JSON.stringify(p.status)}; expected SUCCESS or FAILURE`);
  if ('state' in p) return error(400, `invalid request: unknown state ${JSON.stringify(p.state)}; expected COMPLETED, FAILED or ABORTED`);
  return error(400, 'invalid request: payload has neither status nor state');
}
