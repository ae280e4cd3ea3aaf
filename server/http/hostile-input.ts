/**
 * Input every route refuses before validation, because the failure would otherwise surface later as a
 * 500 (issue #12): NUL characters, which PostgreSQL text and jsonb cannot hold, and JSON nested so
 * deeply that recursive code (validation, jsonb encoding) runs out of stack.
 */

/** Far beyond any real document: FHIR bundles and form values nest a dozen levels at most. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays/objects deeper than `max`; one linear pass, run before JSON.parse. */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function label(path: Array<string | number>): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

/**
 * The path of the first string (value or object key) holding a NUL character, e.g. `context.name`, or
 * null. Iterative, so even a value that slipped past the depth cap cannot overflow the stack.
 */
export function findNul(value: unknown): string | null {
  const stack: Array<{ v: unknown; path: Array<string | number> }> = [{ v: value, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return label(path);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: [...path, i] });
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return label([...path, k.replace(/\u0000/g, '\\0')]);
        stack.push({ v: child, path: [...path, k] });
      }
    }
  }
  return null;
}
