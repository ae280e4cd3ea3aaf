import { Counter, Gauge, type Registry } from 'prom-client';
import { apiError, type ApiError } from '@/lib/errors';

/** SSE status-stream limits (SSE_* settings, README Security). 0 lifts a cap. */
export interface SseLimits {
  perProvider: number;
  perPartner: number;
  perProcess: number;
  /** After this, the server ends a stream that is still open and the client reconnects. */
  maxLifetimeMs: number;
}

/** Whose stream it is: the service token's provider, and the partner it acts through. */
export interface SseHolder {
  providerId: string;
  partnerId: string;
}

/** Why the server ended a stream before a terminal status; the stream's last event says it. */
export type SseEndReason = 'lifetime' | 'shutdown' | 'disabled';

type CapKind = 'provider' | 'partner' | 'process';

interface Entry {
  holder: SseHolder;
  end(reason: SseEndReason): void;
}

const SETTING: Record<CapKind, string> = {
  provider: 'SSE_STREAMS_PER_PROVIDER',
  partner: 'SSE_STREAMS_PER_PARTNER',
  process: 'SSE_STREAMS_MAX',
};

/**
 * The status streams open in this process, under per-provider, per-partner and process-wide caps. Each one
 * holds a socket for as long as it lasts, and keepalive comments keep it from ever going idle, so without
 * caps one token could take every file descriptor (19,765 streams, issue 26). The caps are per process,
 * since descriptors and memory are: N web processes admit N times the caps in all. Counted in memory, so a
 * refusal costs no database work during a flood.
 */
export class SseRegistry {
  private readonly open = new Set<Entry>();
  private readonly byProvider = new Map<string, number>();
  private readonly byPartner = new Map<string, number>();
  readonly refused: Record<CapKind, number> = { provider: 0, partner: 0, process: 0 };
  /** Set at shutdown: new streams are refused with 503 instead of being opened and cut off. */
  stopping = false;

  constructor(readonly limits: SseLimits) {}

  get size(): number {
    return this.open.size;
  }

  /**
   * Takes a place for a stream, or throws 429 naming the full cap (503 once shutting down). `end` is how the
   * registry ends the stream (shutdown, disabled provider). The returned release is safe to call twice.
   */
  admit(holder: SseHolder, end: (reason: SseEndReason) => void): () => void {
    if (this.stopping) throw apiError('unavailable', 'server restarting; reconnect to follow the status');
    const { perProvider, perPartner, perProcess } = this.limits;
    const provider = this.byProvider.get(holder.providerId) ?? 0;
    const partner = this.byPartner.get(holder.partnerId) ?? 0;
    if (perProvider > 0 && provider >= perProvider) throw this.full('provider', provider);
    if (perPartner > 0 && partner >= perPartner) throw this.full('partner', partner);
    if (perProcess > 0 && this.open.size >= perProcess) throw this.full('process', this.open.size);
    const entry: Entry = { holder, end };
    this.open.add(entry);
    this.byProvider.set(holder.providerId, provider + 1);
    this.byPartner.set(holder.partnerId, partner + 1);
    return () => {
      if (!this.open.delete(entry)) return;
      decrement(this.byProvider, holder.providerId);
      decrement(this.byPartner, holder.partnerId);
    };
  }

  /** Ends the streams whose holder matches; returns how many. */
  endWhere(match: (holder: SseHolder) => boolean, reason: SseEndReason): number {
    const chosen = [...this.open].filter((e) => match(e.holder));
    for (const e of chosen) e.end(reason);
    return chosen.length;
  }

  /** The distinct provider/partner pairs with a stream open here. */
  holders(): SseHolder[] {
    const seen = new Map<string, SseHolder>();
    for (const { holder } of this.open) seen.set(`${holder.providerId}|${holder.partnerId}`, holder);
    return [...seen.values()];
  }

  private full(kind: CapKind, open: number): ApiError {
    this.refused[kind]++;
    const who = kind === 'process' ? 'this server' : `this ${kind}`;
    // Retry-After: a capped client should back off, not hammer the cap (the web app falls back to polling).
    return apiError(
      'too_many_requests',
      `${who} already has ${open} open status event streams, the limit (${SETTING[kind]}); close one, or poll the status instead`,
      { 'retry-after': '10' },
    );
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const n = (counts.get(key) ?? 1) - 1;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}

/** /metrics: open status streams and refusals by cap, read from the registry when scraped. */
export function registerSseMetrics(registry: Registry, sse: SseRegistry): void {
  new Gauge({
    name: 'ambient_sse_streams',
    help: 'Server-Sent Events status streams open in this process',
    registers: [registry],
    collect() {
      this.set(sse.size);
    },
  });
  new Counter({
    name: 'ambient_sse_refused_total',
    help: 'Status event streams refused with 429, by the cap that was full (provider, partner, process)',
    labelNames: ['limit'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [limit, n] of Object.entries(sse.refused)) this.inc({ limit }, n);
    },
  });
}
