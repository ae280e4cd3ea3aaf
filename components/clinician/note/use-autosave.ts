'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/lib/api/fetch';
import type { ContentResponse, SummarySection } from '@/lib/contracts/sessions';
import { keys, useSaveSection } from '@/lib/hooks/sessions';

const AUTOSAVE_MS = 800;

export type SaveState = { kind: 'saved' } | { kind: 'dirty' } | { kind: 'saving' } | { kind: 'error'; message: string };

/**
 * A section's text, saved a moment after typing stops. `change` sets the text and schedules the save;
 * `persist` saves now (the retry button). The cached note content is updated with the saved section.
 */
export function useAutosave(sessionId: string, section: SummarySection) {
  const qc = useQueryClient();
  const save = useSaveSection(sessionId);
  const [text, setText] = useState(section.content);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const latest = useRef(text);
  latest.current = text;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const persist = useCallback(
    async (content: string) => {
      setSaveState({ kind: 'saving' });
      try {
        const r = await save.mutateAsync({ loinc: section.loinc_code, content });
        qc.setQueryData<ContentResponse>(keys.content(sessionId), (old) =>
          old ? { ...old, summary: old.summary.map((s) => (s.loinc_code === section.loinc_code ? r.section : s)) } : old,
        );
        // Typing may have continued while the request ran.
        setSaveState(latest.current === content ? { kind: 'saved' } : { kind: 'dirty' });
      } catch (err) {
        setSaveState({ kind: 'error', message: errorMessage(err) });
      }
    },
    [qc, save, section.loinc_code, sessionId],
  );

  const change = useCallback(
    (next: string) => {
      setText(next);
      setSaveState({ kind: 'dirty' });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void persist(next), AUTOSAVE_MS);
    },
    [persist],
  );

  // Leaving the page (or the note) must not drop an edit still waiting for its autosave.
  const persistRef = useRef(persist);
  persistRef.current = persist;
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void persistRef.current(latest.current);
      }
    },
    [],
  );

  return { text, change, saveState, persist };
}

export function saveStatus(s: SaveState): string {
  switch (s.kind) {
    case 'saved':
      return 'Saved';
    case 'saving':
      return 'Saving…';
    case 'dirty':
      return 'Unsaved changes';
    case 'error':
      return `Not saved: ${s.message}`;
  }
}
