/**
 * Puts a dictated phrase into a section's text at the cursor, spaced from the words either side, and
 * answers where the cursor is after it (where the next phrase goes).
 */
export function insertAtCursor(text: string, at: number, phrase: string): { text: string; caret: number } {
  const pos = Math.max(0, Math.min(at, text.length));
  const before = text.slice(0, pos);
  const after = text.slice(pos);
  const lead = before && !/\s$/.test(before) ? ' ' : '';
  const trail = after && !/^\s/.test(after) ? ' ' : '';
  const inserted = `${lead}${phrase}${trail}`;
  return { text: before + inserted + after, caret: pos + lead.length + phrase.length };
}
