import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { CodeIndex } from '@/server/codesets/index';
import type { NotesEngine } from './types';
import { EmbeddedNotesEngine } from './embedded/index';
import { OpenAINotesEngine } from './openai';
import { createGuardMetrics, GuardedNotesEngine } from './guard/index';

export type { NotesEngine } from './types';
export { EmbeddedNotesEngine, noteToText } from './embedded/index';
export { OpenAINotesEngine } from './openai';

export interface NotesEngineConfig {
  /** embedded (default) | openai, as configured (NOTES_ENGINE); checked here, when the engine is built. */
  engine?: string;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** NOTES_TIMEOUT_MS, NOTES_MAX_RETRIES, NOTES_CONCURRENCY as written (server/config.ts), or numbers. */
  timeoutMs?: string | number;
  maxRetries?: string | number;
  concurrency?: string | number;
  /** NOTES_FALLBACK: embedded | none (default). */
  fallback?: string;
  /** First retry delay (tests shorten it). */
  retryBaseMs?: number;
  codes?: CodeIndex;
  /** The process's metrics registry: the guard counts its decisions there. */
  metrics?: Registry;
  log?: Pick<Logger, 'info' | 'warn'>;
}

/** A whole number setting, or the default when unset; anything else names the variable. */
function count(name: string, value: string | number | undefined, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min} (got ${JSON.stringify(String(value))})`);
  return n;
}

/**
 * The server passes Config.notes, the code index it loaded at start, its metrics registry and logger
 * (server/services.ts). Without `codes` the engine uses the code-set files or the built-in set, so scripts
 * and benches need no server. Whichever engine is configured, the faithfulness guard is in front of it.
 */
export function createNotesEngine(config: NotesEngineConfig = {}): NotesEngine {
  const kind = (config.engine ?? 'embedded').toLowerCase();
  const codes = config.codes;
  const guard = (engine: NotesEngine) => new GuardedNotesEngine(engine, { metrics: config.metrics ? createGuardMetrics(config.metrics) : undefined, log: config.log });
  const embedded = new EmbeddedNotesEngine({ codes });
  if (kind === 'embedded') return guard(embedded);
  if (kind === 'openai') {
    const { baseUrl, model } = config;
    if (!baseUrl || !model) throw new Error('NOTES_ENGINE=openai needs NOTES_BASE_URL and NOTES_MODEL');
    const fallback = (config.fallback || 'none').toLowerCase();
    if (fallback !== 'none' && fallback !== 'embedded') throw new Error(`NOTES_FALLBACK=${config.fallback} is not supported (none | embedded)`);
    return guard(
      new OpenAINotesEngine({
        baseUrl,
        model,
        apiKey: config.apiKey,
        timeoutMs: count('NOTES_TIMEOUT_MS', config.timeoutMs, 120_000, 1),
        maxRetries: count('NOTES_MAX_RETRIES', config.maxRetries, 2, 0),
        concurrency: count('NOTES_CONCURRENCY', config.concurrency, 2, 1),
        retryBaseMs: config.retryBaseMs,
        codes,
        fallback: fallback === 'embedded' ? embedded : undefined,
      }),
    );
  }
  throw new Error(`NOTES_ENGINE=${kind} is not supported (embedded | openai)`);
}
