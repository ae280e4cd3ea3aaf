import { createHash } from 'node:crypto';

/**
 * A stable UUID (RFC 4122 version 5 layout) for one exported resource, from the ids it stands for, so
 * exporting the same note twice gives the same resource ids and an EHR can load it idempotently.
 */
export function deriveResourceId(...parts: string[]): string {
  const hash = createHash('sha1').update(parts.join('\u0000')).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
