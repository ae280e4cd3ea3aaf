export type RangeResult =
  | { kind: 'full' }
  | { kind: 'partial'; start: number; end: number }
  | { kind: 'unsatisfiable' };

/**
 * Parses a `Range` header for a resource of `size` bytes (RFC 9110 §14). One range is served; a
 * header this server does not understand (another unit, several ranges, bad syntax) is ignored and the
 * whole body is sent, which the RFC allows. `end` is inclusive.
 */
export function parseRange(header: string | null | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'full' };
  const [, a, b] = m;
  if (a === '' && b === '') return { kind: 'full' };
  if (a === '') {
    // Suffix range: the last N bytes.
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  let end = b === '' ? size - 1 : Number(b);
  if (b !== '' && end < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  end = Math.min(end, size - 1);
  return { kind: 'partial', start, end };
}
