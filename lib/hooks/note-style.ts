'use client';
/** Query hooks for note styles, the clinician's templates and the visit's pre-chart (issue 31). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PatchPreferencesRequest } from '@/lib/contracts/preferences';
import { getPreferences, updatePreferences } from '@/lib/contracts/routes/preferences';
import { getPreChart, getVisitNoteStyle, setPrevisitNote, setVisitNoteStyle } from '@/lib/contracts/routes/note-style';
import { callAsClinician } from './clinician-call';
import { keys } from './sessions';
import { workflowKeys } from './workflow';

export const styleKeys = {
  preferences: ['v1', 'user', 'preferences'] as const,
  style: (id: string) => ['v1', 'session', id, 'note-style'] as const,
  preChart: (id: string) => ['v1', 'session', id, 'pre-chart'] as const,
};

export function usePreferences() {
  const qc = useQueryClient();
  return useQuery({ queryKey: styleKeys.preferences, queryFn: () => callAsClinician(qc, getPreferences, {}) });
}

export function useUpdatePreferences() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchPreferencesRequest) => callAsClinician(qc, updatePreferences, { body }),
    onSuccess: (data) => qc.setQueryData(styleKeys.preferences, data),
  });
}

export function useVisitNoteStyle(id: string) {
  const qc = useQueryClient();
  return useQuery({ queryKey: styleKeys.style(id), queryFn: () => callAsClinician(qc, getVisitNoteStyle, { params: { ambient_session_id: id } }) });
}

/** Chooses the visit's style; a finished note comes back written in it, so the note and its review are read again. */
export function useSetVisitNoteStyle(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (noteStyle: string) => callAsClinician(qc, setVisitNoteStyle, { params: { ambient_session_id: id }, body: { note_style: noteStyle } }),
    onSuccess: async (data) => {
      qc.setQueryData(styleKeys.style(id), data);
      if (data.rerendered) {
        // Reset, not just refetched: a section the new style files under the same code would keep the
        // editor's old text, since each editor holds its text from when it mounted.
        await qc.resetQueries({ queryKey: keys.content(id) });
        void qc.invalidateQueries({ queryKey: workflowKeys.review(id) });
      }
    },
  });
}

export function usePreChart(id: string) {
  const qc = useQueryClient();
  return useQuery({ queryKey: styleKeys.preChart(id), queryFn: () => callAsClinician(qc, getPreChart, { params: { ambient_session_id: id } }) });
}

export function useSetPrevisitNote(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (note: string) => callAsClinician(qc, setPrevisitNote, { params: { ambient_session_id: id }, body: { previsit_note: note } }),
    onSuccess: (data) => qc.setQueryData(styleKeys.preChart(id), data),
  });
}
