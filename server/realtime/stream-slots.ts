import { ApiError } from '@/lib/errors';
import type { AppContext } from '../context';

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
  release(): void;
}

/**
 * Concurrent-stream caps for /ws/ambient and /ws/transcribe together. Async so a store shared by several
 * processes (a PostgreSQL table with leases) can replace the in-process one without touching callers.
 */
export interface StreamSlots {
  /** Takes a slot, or throws ApiError 429 naming the cap that is full. */
  acquire(holder: StreamHolder): Promise<StreamSlot>;
  /** Streams currently holding a slot, for a provider or a partner. */
  count(key: { providerId: string } | { partnerId: string }): number;
}

/** Counts this process's streams only; with several web processes each one enforces the caps alone. */
export class LocalStreamSlots implements StreamSlots {
  private readonly byProvider = new Map<string, number>();
  private readonly byPartner = new Map<string, number>();

  constructor(private readonly limits: StreamLimits) {}

  async acquire(holder: StreamHolder): Promise<StreamSlot> {
    const { perProvider, perPartner } = this.limits;
    const provider = this.byProvider.get(holder.providerId) ?? 0;
    const partner = this.byPartner.get(holder.partnerId) ?? 0;
    if (perProvider > 0 && provider >= perProvider) {
      throw new ApiError(429, `this provider already has ${provider} open streams, the limit (STREAMS_PER_PROVIDER); end one before opening another`);
    }
    if (perPartner > 0 && partner >= perPartner) {
      throw new ApiError(429, `this partner already has ${partner} open streams, the limit (STREAMS_PER_PARTNER); end one before opening another`);
    }
    this.byProvider.set(holder.providerId, provider + 1);
    this.byPartner.set(holder.partnerId, partner + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        decrement(this.byProvider, holder.providerId);
        decrement(this.byPartner, holder.partnerId);
      },
    };
  }

  count(key: { providerId: string } | { partnerId: string }): number {
    return 'providerId' in key ? (this.byProvider.get(key.providerId) ?? 0) : (this.byPartner.get(key.partnerId) ?? 0);
  }
}

function decrement(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 0) - 1;
  // Deleted at zero so the maps hold only holders with open streams.
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

export function getStreamSlots(app: Pick<AppContext, 'services' | 'config'>): StreamSlots {
  let slots = app.services.get('realtime.slots') as StreamSlots | undefined;
  if (!slots) {
    slots = new LocalStreamSlots({ perProvider: app.config.ws.streamsPerProvider, perPartner: app.config.ws.streamsPerPartner });
    app.services.set('realtime.slots', slots);
  }
  return slots;
}
