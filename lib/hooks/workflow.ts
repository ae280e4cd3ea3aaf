'use client';
/** Query hooks of the clinician workflow: visit history, search, needs review, sign-off, visit summary. */
import type { z } from 'zod';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { NoteHistoryResponse, NoteSignoffState } from '@/lib/contracts/note-signoff';
import type { ContextResponse } from '@/lib/contracts/session-context';
import type { ContentResponse } from '@/lib/contracts/session-content';
import type { ReviewOutcomeInput } from '@/lib/contracts/note-review';
import { amendNote, getNoteHistory, getNoteReview, getVisitSummary, listNeedsReview, searchSessions, signNote, updatePatientIdentity } from '@/lib/contracts/routes/workflow';
import { getSessionContext } from '@/lib/contracts/routes/sessions';
import { keys } from './sessions';
import { callAsClinician } from './clinician-call';

export const workflowKeys = {
  search: (q: string) => ['v1', 'sessions', 'search', q] as const,
  needsReview: ['v1', 'sessions', 'needs-review'] as const,
  history: (id: string) => ['v1', 'session', id, 'note-history'] as const,
  review: (id: string) => ['v1', 'session', id, 'note-review'] as const,
  summary: (id: string) => ['v1', 'session', id, 'visit-summary'] as const,
  context: (id: string) => ['v1', 'session', id, 'context'] as const,
};

/** YYYY-MM-DD shifted by whole days, on the calendar (no clock or DST involved). */
export function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function useSearchSessions(q: string) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: workflowKeys.search(q),
    queryFn: () => callAsClinician(qc, searchSessions, { query: { q } }),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function useNeedsReview(enabled = true) {
  const qc = useQueryClient();
  return useQuery({ queryKey: workflowKeys.needsReview, queryFn: () => callAsClinician(qc, listNeedsReview, {}), enabled });
}

/** Events per page on the visit page: the newest first, older ones on "Load more". */
export const NOTE_HISTORY_PAGE = 20;

/**
 * The note's sign-off state and its history, newest first, one page at a time (issue 26 item 2: the whole
 * history in one answer took the page down). `data` is the state with the loaded pages' events joined;
 * `fetchNextPage` loads older events while `hasNextPage`. `enabled` false waits (a visit with no note yet has no history).
 */
export function useNoteHistory(id: string, enabled = true) {
  const qc = useQueryClient();
  return useInfiniteQuery({
    queryKey: workflowKeys.history(id),
    enabled,
    queryFn: ({ pageParam }) =>
      callAsClinician(qc, getNoteHistory, { params: { ambient_session_id: id }, query: { limit: NOTE_HISTORY_PAGE, order: 'desc', cursor: pageParam } }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // The state is the freshest page's: after a refetch every page carries the same.
    select: (data: InfiniteData<NoteHistoryResponse, string | undefined>): NoteHistoryResponse => ({
      ...data.pages[0]!,
      events: data.pages.flatMap((p) => p.events),
      next_cursor: data.pages.at(-1)!.next_cursor,
    }),
  });
}

/** Sign or amend; both refresh the history, the lists and the content's note_status. */
export function useSignoff(id: string) {
  const qc = useQueryClient();
  const after = (state: NoteSignoffState) => {
    qc.setQueryData<ContentResponse>(keys.content(id), (old) => (old ? { ...old, note_status: state.note_status, signed_at: state.signed_at } : old));
    void qc.invalidateQueries({ queryKey: workflowKeys.history(id) });
    void qc.invalidateQueries({ queryKey: workflowKeys.summary(id) });
    void qc.invalidateQueries({ queryKey: ['v1', 'sessions'] });
  };
  // The app always signs with the review outcome (issue 27); the API still accepts a sign without one.
  const sign = useMutation({
    mutationFn: (review: ReviewOutcomeInput) => callAsClinician(qc, signNote, { params: { ambient_session_id: id }, body: { review } }),
    onSuccess: after,
  });
  const amend = useMutation({
    mutationFn: (reason: string) => callAsClinician(qc, amendNote, { params: { ambient_session_id: id }, body: { reason } }),
    onSuccess: after,
  });
  return { sign, amend };
}

/** What needs a decision before signing; read fresh each time the review opens, since edits change it. */
export function useNoteReview(id: string, enabled: boolean) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: workflowKeys.review(id),
    queryFn: () => callAsClinician(qc, getNoteReview, { params: { ambient_session_id: id } }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useVisitSummary(id: string) {
  const qc = useQueryClient();
  return useQuery({ queryKey: workflowKeys.summary(id), queryFn: () => callAsClinician(qc, getVisitSummary, { params: { ambient_session_id: id } }) });
}

export function useSessionContext(id: string) {
  const qc = useQueryClient();
  return useQuery({ queryKey: workflowKeys.context(id), queryFn: () => callAsClinician(qc, getSessionContext, { params: { ambient_session_id: id } }) });
}

/** Sets or clears the patient's name and MRN (JSON merge patch: null removes). */
export function useUpdatePatient(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (p: { name: string | null; mrn: string | null }) =>
      callAsClinician(qc, updatePatientIdentity, { params: { ambient_session_id: id }, body: p }),
    onSuccess: (patient) => {
      qc.setQueryData<z.infer<typeof ContextResponse>>(workflowKeys.context(id), (old) => (old ? { context: { ...old.context, patient: { ...old.context.patient, name: patient.name ?? undefined, mrn: patient.mrn ?? undefined } } } : old));
      void qc.invalidateQueries({ queryKey: ['v1', 'sessions'] });
    },
  });
}
