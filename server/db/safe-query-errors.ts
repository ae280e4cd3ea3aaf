import { DrizzleQueryError } from 'drizzle-orm/errors';
import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/** Fields of a PostgreSQL error that name schema objects, never the data: detail, where and hint quote values. */
const SAFE_FIELDS = ['code', 'severity', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const;

/**
 * SQLSTATE classes whose messages name only schema objects (unique, not-null, check, syntax, lock, resource
 * errors …). Others, data exceptions (22xxx) above all, quote the offending value: "invalid input syntax
 * for type uuid: \"…\"", "date/time field value out of range: \"…\"".
 */
const VALUE_FREE_CLASSES = new Set(['08', '23', '25', '40', '42', '53', '54', '55', '57', '58']);

type DbErrorLike = Error & Partial<Record<(typeof SAFE_FIELDS)[number], string>>;

function sqlState(err: unknown): string | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** The database's error reduced to what can be logged: its SQLSTATE and schema names, a message only when it holds no value. */
function safeCause(err: unknown): Error {
  const state = sqlState(err);
  const original = err instanceof Error ? err : new Error(String(err));
  const message = !state || VALUE_FREE_CLASSES.has(state.slice(0, 2)) ? original.message : `database error ${state}`;
  const safe: DbErrorLike = new Error(message);
  safe.name = original.name;
  for (const f of SAFE_FIELDS) {
    const v = (original as DbErrorLike)[f];
    if (typeof v === 'string') safe[f] = v;
  }
  safe.stack = `${safe.name}: ${message}`;
  return safe;
}

/**
 * What a failed query throws instead of drizzle's DrizzleQueryError, whose message (and so every log line and
 * stack trace carrying it) lists the parameters: patients' names, MRNs, dates of birth, transcript text.
 * It keeps the statement and the SQLSTATE, and a cause with the code and constraint callers branch on.
 */
export class QueryFailedError extends Error {
  readonly query: string;
  readonly code: string | undefined;

  constructor(query: string, cause: unknown) {
    const c = safeCause(cause);
    const code = sqlState(cause);
    super(`Failed query${code ? ` (${code})` : ''}: ${query}`, { cause: c });
    this.name = 'QueryFailedError';
    this.query = query;
    this.code = code;
  }
}

const INSTALLED = Symbol.for('ambient.safe-query-errors');

/**
 * Every query drizzle runs (either driver, transactions, raw `execute`) goes through
 * PgPreparedQuery.queryWithCache, which wraps driver errors in DrizzleQueryError; wrapping it once more is
 * the one place that sees every failure before anything can log it.
 */
export function installSafeQueryErrors(): void {
  const proto = PgPreparedQuery.prototype as unknown as Record<PropertyKey, unknown> & {
    queryWithCache: (queryString: string, params: unknown[], query: () => Promise<unknown>) => Promise<unknown>;
  };
  if (proto[INSTALLED]) return;
  const original = proto.queryWithCache;
  proto.queryWithCache = async function (this: unknown, queryString: string, params: unknown[], query: () => Promise<unknown>) {
    try {
      return await original.call(this, queryString, params, query);
    } catch (err) {
      if (err instanceof DrizzleQueryError) throw new QueryFailedError(err.query, err.cause);
      // The same class from another copy of drizzle (Next bundles its own) is recognised by shape.
      if (err instanceof Error && err.message.startsWith('Failed query: ') && typeof (err as { query?: unknown }).query === 'string') {
        throw new QueryFailedError((err as unknown as { query: string }).query, err.cause);
      }
      throw err;
    }
  };
  proto[INSTALLED] = true;
}
