import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { partners, webhookAttempts, webhookDeliveries } from '../db/schema';
import { retryDelayMs } from './backoff';
import { dispatchDelivery } from './queues';
import { sendWebhook } from './send';
import { signWebhook } from './sign';
import type { Resolver } from '../http/outbound-address';
import { recordWebhookAttempt } from '../observability/metrics';
import { systemDb } from '../db';

export const WEBHOOK_USER_AGENT = 'ambient-docs-webhooks/1.0';

/** How long past the request timeout a claim is held before another worker may assume the holder died. */
const LEASE_SLACK_MS = 30_000;

export interface DeliveryOutcome {
  /** skipped: not due, already delivered, or another worker holds it. */
  outcome: 'delivered' | 'retry' | 'failed' | 'skipped';
  attempt?: number;
  responseCode?: number | null;
  error?: string | null;
  nextAttemptAt?: Date | null;
}

export interface DeliverOptions {
  resolver?: Resolver;
  /** Attempt even if next_attempt_at lies in the future (admin redelivery acts at once). */
  ignoreSchedule?: boolean;
}

/**
 * Makes one attempt for a delivery, if it is due. Safe to call from any number of jobs at once: the
 * attempt is claimed with a conditional update (pending and due, or delivering with a lapsed claim), so
 * exactly one caller sends; the others return `skipped`. The attempt counter is taken with the claim,
 * so an attempt cut short by a crash still counts and still carries its own webhook-attempt number.
 */
export async function deliverWebhook(app: AppContext, deliveryId: string, opts: DeliverOptions = {}): Promise<DeliveryOutcome> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + app.config.webhookTimeoutMs + LEASE_SLACK_MS);
  const due = opts.ignoreSchedule
    ? eq(webhookDeliveries.status, 'pending')
    : and(eq(webhookDeliveries.status, 'pending'), or(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, now)));
  const lapsed = and(eq(webhookDeliveries.status, 'delivering'), lt(webhookDeliveries.leaseUntil, now));
  const [row] = await systemDb(app, "webhook outbox worker: every tenant's deliveries")
    .update(webhookDeliveries)
    .set({ status: 'delivering', leaseUntil, attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now, nextAttemptAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), or(due, lapsed)))
    .returning();
  if (!row) return { outcome: 'skipped' };
  const attempt = row.attempts;

  const partner = (
    await systemDb(app, "webhook outbox worker: every tenant's deliveries")
      .select({ webhookUrl: partners.webhookUrl, webhookSecretEnc: partners.webhookSecretEnc })
      .from(partners)
      .where(eq(partners.partnerId, row.partnerId))
      .limit(1)
  )[0];
  // The partner's current URL and secret: a fixed URL or a rotated secret applies to retries and redeliveries.
  const url = partner?.webhookUrl ?? null;

  const generatedAt = String(Date.now());
  let signature = '';
  let unsignable: string | null = null;
  try {
    if (partner) signature = signWebhook(app.secrets.open(partner.webhookSecretEnc), generatedAt, row.body);
  } catch {
    // Sending unsigned would teach receivers to accept unsigned requests; this needs an operator instead.
    unsignable = 'the webhook secret cannot be decrypted (was SECRET_KEY changed?); rotate the partner webhook secret';
  }
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'generated-at': generatedAt,
    'X-API-Key': signature,
    'webhook-id': row.id,
    'webhook-attempt': String(attempt),
  };

  const result = unsignable
    ? { ok: false, retryable: false, status: null, error: unsignable, durationMs: 0, address: null }
    : url
    ? await sendWebhook({
        url,
        headers,
        body: row.body,
        timeoutMs: app.config.webhookTimeoutMs,
        allowPrivate: app.config.webhookAllowPrivate,
        resolver: opts.resolver,
      })
    : { ok: false, retryable: false, status: null, error: 'partner has no webhook_url', durationMs: 0, address: null };

  await systemDb(app, "webhook outbox worker: every tenant's deliveries").insert(webhookAttempts).values({
    deliveryId: row.id,
    attempt,
    url,
    requestHeaders: headers,
    responseCode: result.status,
    error: result.error,
    durationMs: result.durationMs,
  });

  let outcome: DeliveryOutcome['outcome'];
  let nextAttemptAt: Date | null = null;
  let lastError = result.error;
  if (result.ok) {
    outcome = 'delivered';
  } else {
    const delay = result.retryable ? retryDelayMs(app.config.webhookRetrySchedule, attempt - row.sequenceStart) : null;
    if (delay !== null) {
      outcome = 'retry';
      nextAttemptAt = new Date(Date.now() + delay);
    } else {
      outcome = 'failed';
      if (result.retryable) lastError = `${result.error}; gave up after ${attempt - row.sequenceStart} attempts`;
    }
  }

  const finished = await systemDb(app, "webhook outbox worker: every tenant's deliveries")
    .update(webhookDeliveries)
    .set({
      status: outcome === 'retry' ? 'pending' : outcome,
      url: url ?? row.url,
      leaseUntil: null,
      nextAttemptAt,
      lastResponseCode: result.status,
      lastError,
      ...(outcome === 'delivered' ? { deliveredAt: new Date() } : {}),
    })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.leaseUntil, leaseUntil)))
    .returning({ id: webhookDeliveries.id });

  app.log.info(
    { deliveryId: row.id, partnerId: row.partnerId, eventType: row.eventType, attempt, responseCode: result.status, outcome, ms: result.durationMs, ...(result.status === null && result.error ? { error: result.error } : {}) },
    'webhook attempt',
  );
  recordWebhookAttempt(app, row.eventType, outcome);
  // Receiver bodies (kept in webhook_attempts) stay out of the process log; they may echo what was sent.
  // A claim that lapsed mid-attempt belongs to whoever took it over; they record the outcome.
  if (finished.length === 0) return { outcome: 'skipped', attempt };

  if (outcome === 'retry' && nextAttemptAt) {
    await dispatchDelivery(app, row.id, nextAttemptAt).catch((err: Error) =>
      app.log.warn({ deliveryId: row.id, err: err.message }, 'retry job not queued; the outbox sweeper will send it'),
    );
  }
  return { outcome, attempt, responseCode: result.status, error: lastError, nextAttemptAt };
}
