import { create } from 'zustand';

/**
 * What the review before signing sent the clinician to edit, by visit and section: said above that section's text,
 * where they are typing, rather than in a toast that hides part of the note and is gone before they look.
 */
interface SignHints {
  bySection: Record<string, string>;
  add(sessionId: string, loinc: string, text: string): void;
  clear(sessionId: string): void;
}

export const hintKey = (sessionId: string, loinc: string) => `${sessionId}|${loinc}`;

export const useSignHints = create<SignHints>((set) => ({
  bySection: {},
  add: (sessionId, loinc, text) => set((s) => ({ bySection: { ...s.bySection, [hintKey(sessionId, loinc)]: text } })),
  clear: (sessionId) => set((s) => ({ bySection: Object.fromEntries(Object.entries(s.bySection).filter(([k]) => !k.startsWith(`${sessionId}|`))) })),
}));
