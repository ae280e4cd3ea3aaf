import { badRequest } from '@/lib/errors';

/** Keyset pagination cursor: the sort key of the last row returned, opaque to clients. */
export function encodeCursor(parts: Array<string | number>): string {
  return Buffer.from(JSON.stringify(parts)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, types: Array<'string' | 'number' | 'date'>): Array<string | number | Date> | null {
  if (!cursor) return null;
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(parts) || parts.length !== types.length) throw new Error('shape');
    return parts.map((p, i) => {
      const t = types[i];
      if (t === 'number' && typeof p === 'number' && Number.isFinite(p)) return p;
      if (t === 'string' && typeof p === 'string') return p;
      if (t === 'date' && typeof p === 'string' && !Number.isNaN(Date.parse(p))) return new Date(p);
      throw new Error('type');
    });
  } catch {
    throw badRequest('cursor: is not a cursor returned by this list');
  }
}
