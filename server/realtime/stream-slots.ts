import { apiError, type ApiError } from '@/lib/errors';

/** Whose stream it is: caps apply to the provider (whichever partner it streams through) and to the partner. */
export interface StreamHolder {
  providerId: string;
  partnerId: string;
}

export interface StreamLimits {
  /** 0: no cap. */
  perProvider: number;
  perPartner: number;
}

/** One open stream's place under the caps. Released once, on whichever way the stream ends. */
export interface StreamSlot {
  /** Never rejects: a release the store cannot record lapses with its lease instead. */
  release(): Promise<void>;
}

/**
 * Concurrent-stream caps for /ws/ambient and /ws/transcribe together, counted in a store every web process
 * shares (stream-slots-db.ts), so N processes allow the caps once, not N times.
 */
export interface StreamSlots {
  /** Takes a slot, or throws ApiError 429 naming the cap that is full. */
  acquire(holder: StreamHolder): Promise<StreamSlot>;
  /** Streams currently holding a slot, for a provider or a partner, across every process. */
  count(key: { providerId: string } | { partnerId: string }): Promise<number>;
  /** Gives back every slot this process holds and stops renewing them (shutdown). */
  close(): Promise<void>;
}

export function providerCapKey(providerId: string): string {
  return `provider:${providerId}`;
}

export function partnerCapKey(partnerId: string): string {
  return `partner:${partnerId}`;
}

/** The refusal for a full cap, naming the setting an operator would raise. */
export function capFull(kind: 'provider' | 'partner', open: number): ApiError {
  const setting = kind === 'provider' ? 'STREAMS_PER_PROVIDER' : 'STREAMS_PER_PARTNER';
  return apiError('too_many_requests', `this ${kind} already has ${open} open streams, the limit (${setting}); end one before opening another`);
}

export function getStreamSlots(app: { services: { slots: StreamSlots } }): StreamSlots {
  return app.services.slots;
}
