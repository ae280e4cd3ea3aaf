/** Keyboard shortcuts of the clinician app; the help dialog lists exactly these. */
export const SHORTCUTS = [
  { keys: 'Alt+N', action: 'Start a new visit' },
  { keys: 'Alt+R', action: 'Start recording, or end it while recording' },
  { keys: 'Alt+P', action: 'Pause or resume recording' },
  { keys: 'Alt+W', action: 'Rewrite the selected note text (Concise, Verbose, Patient-friendly)' },
  { keys: 'Alt+Z', action: 'Undo the last rewrite in the focused section' },
  { keys: 'Alt+C', action: 'Copy the whole note' },
  { keys: 'Shift+?', action: 'Show these shortcuts' },
] as const;

/** Matches Alt+<letter> by physical key, so it works on layouts where Alt changes the character. */
export function isAlt(e: KeyboardEvent | React.KeyboardEvent, letter: string): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && e.code === `Key${letter.toUpperCase()}`;
}
