'use client';
import { useEffect, useRef } from 'react';
import { create } from 'zustand';

/**
 * One polite live region for the clinician app's passing news (a section saved, a save that failed), so a
 * screen reader hears one message for the change the clinician made rather than one per section on the page.
 */
const useAnnouncement = create<{ message: string; n: number }>(() => ({ message: '', n: 0 }));

export function announce(message: string): void {
  useAnnouncement.setState((s) => ({ message, n: s.n + 1 }));
}

export function Announcer() {
  const { message, n } = useAnnouncement();
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="announcer">
      {/* Keyed by count, so the same words said twice (two saves in a row) are read twice. */}
      <span key={n}>{message}</span>
    </div>
  );
}

/** Announces a section's save once it settles (saved, or failed), not every keystroke's "Unsaved changes". */
export function useAnnounceSave(title: string, kind: string, label: string): void {
  const prev = useRef(kind);
  useEffect(() => {
    if (kind !== prev.current && (kind === 'saved' || kind === 'error')) announce(`${title}: ${label}`);
    prev.current = kind;
  }, [kind, title, label]);
}

/** A ref that moves focus to its element when the element appears (a heading given tabIndex -1). */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
