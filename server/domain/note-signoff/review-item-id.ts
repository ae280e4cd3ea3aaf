import crypto from 'node:crypto';

/**
 * The id of a review item: the same kind, section and text give the same id, so a decision made before a
 * reload, or before an edit elsewhere in the note, still names its item.
 */
export function reviewItemId(kind: string, loinc: string | null | undefined, text: string): string {
  return crypto.createHash('sha256').update(`${kind}\n${loinc ?? ''}\n${text.trim()}`).digest('hex').slice(0, 24);
}
