type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * JSON merge patch (RFC 7396): objects merge member by member, arrays and scalars replace, null
 * removes the member. Members the patch leaves undefined are kept.
 */
export function mergeContext<T extends Record<string, unknown>>(base: T | null | undefined, patch: Record<string, unknown>): T {
  const out: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete out[key];
    } else if (isPlainObject(value)) {
      out[key] = mergeContext(isPlainObject(out[key]) ? (out[key] as Record<string, unknown>) : {}, value);
    } else {
      out[key] = value as Json;
    }
  }
  return out as T;
}
