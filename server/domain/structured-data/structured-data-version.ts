import { createHash } from 'node:crypto';
import { storedStructuredData, type StructuredData } from '@/lib/contracts/sessions';
import { attachEvidence } from '../sessions/attach-evidence';

/**
 * The version of a note's structured data (issue 29): a digest of it as the content answers it, object keys
 * sorted and the `evidence` computed on read left out, so the same data reads as the same version however the
 * database orders a JSON object's keys. A change addressed by position carries the version it was made on; any
 * change since (the clinician's in another tab, another clinician's, a regenerated note) gives another version,
 * and the change is refused instead of landing on whatever item now sits at that position.
 */
export function structuredDataVersion(sd: StructuredData): string {
  const canonical = JSON.stringify(sd, (k, v: unknown) => {
    if (k === 'evidence') return undefined;
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v;
  });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 20);
}

/** The version of the structured data as stored (the note row's column), read as the content endpoints read it. */
export function storedStructuredDataVersion(stored: unknown): string {
  return structuredDataVersion(attachEvidence({ summary: [], structured_data: storedStructuredData(stored) }, []).structured_data);
}
