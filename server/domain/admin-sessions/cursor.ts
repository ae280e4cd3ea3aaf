import { badRequest } from '@/lib/errors';

/** Keyset pagination cursor: the sort key of the last row returned, opaque to clients. */
export function encodeCursor(parts: Array<string | number>): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

/**
 * A date as this server writes it into cursors (toISOString of a stored row). Anything else, including
 * dates JavaScript accepts but the database cannot hold (year 275760, "+200000-01-01"), is refused
 * here, where the answer can still be a 400 naming the cursor (issue #12).
 */
const ISO_UTC = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;

export function parseCursorDate(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = ISO_UTC.exec(text);
  if (!m || Number(m[1]) < 1970) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function decodeCursor(cursor: string | undefined, types: Array<'string' | 'number' | 'date'>): Array<string | number | Date> | null {
  if (!cursor) return null;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parts) || parts.length !== types.length) throw new Error('shape');
    return parts.map((p, i) => {
      const t = types[i];
      // Row ids and keys this server issued: bounded integers, and strings without NUL (PostgreSQL refuses it).
      if (t === 'number' && typeof p === 'number' && Number.isSafeInteger(p) && p >= 0) return p;
      if (t === 'string' && typeof p === 'string' && p.length <= 200 && !p.includes('\u0000')) return p;
      const date = t === 'date' ? parseCursorDate(p) : null;
      if (date) return date;
      throw new Error('type');
    });
  } catch {
    throw badRequest('cursor: is not a cursor returned by this list');
  }
}
