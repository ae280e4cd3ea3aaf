'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { isTerminal, type SessionStatus } from '@/lib/contracts/session-status';
import type { SessionListItem } from '@/lib/contracts/clinician';
import type { SessionContext } from '@/lib/contracts/session-context';
import type { RewriteRequest } from '@/lib/contracts/rewrite';
import { getAllInfo } from '@/lib/contracts/routes/info';
import { createSession, getSessionContent, getSessionStatus, getTranscript, listRecordings, setSessionContext } from '@/lib/contracts/routes/sessions';
import { listProviderSessions, updateNoteSection } from '@/lib/contracts/routes/app';
import { rewriteSelection } from '@/lib/contracts/routes/rewrite';
import { ApiClientError } from '@/lib/api/fetch';
import { callAsClinician } from './clinician-call';
import { useStatusEvents } from './use-status-events';

/** How often lists and statuses are re-read while something is still in progress. */
export const POLL_MS = 2_000;

export const keys = {
  info: ['v1', 'info'] as const,
  day: (date: string) => ['v1', 'sessions', date] as const,
  status: (id: string) => ['v1', 'session', id, 'status'] as const,
  content: (id: string) => ['v1', 'session', id, 'content'] as const,
  transcript: (id: string) => ['v1', 'session', id, 'transcript'] as const,
  recordings: (id: string) => ['v1', 'session', id, 'recordings'] as const,
};

const InfoItem = z.object({ code: z.string(), common_name: z.string().optional() }).passthrough();
export const InfoLists = z.object({
  loincs: z.array(InfoItem).default([]),
  specialties: z.array(InfoItem).default([]),
  encounter_types: z.array(InfoItem).default([]),
  visit_types: z.array(InfoItem).default([]),
  provider_roles: z.array(InfoItem).default([]),
});
export type InfoLists = z.infer<typeof InfoLists>;

export function useInfo() {
  const qc = useQueryClient();
  return useQuery({ queryKey: keys.info, queryFn: () => callAsClinician(qc, getAllInfo, {}, { schema: InfoLists }), staleTime: 3600_000 });
}

/** Today's date on the clinician's clock, and its offset from UTC (minutes east). */
export function localDay(now = new Date()): { date: string; offset: number } {
  const offset = -now.getTimezoneOffset();
  return { date: new Date(now.getTime() + offset * 60_000).toISOString().slice(0, 10), offset };
}

export function useDaySessions(date: string, offset: number) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.day(date),
    queryFn: () => callAsClinician(qc, listProviderSessions, { query: { date, utc_offset_minutes: offset } }),
    // Live while any visit is still recording or processing; quiet once all are final.
    refetchInterval: (q) => (q.state.data?.sessions.some((s: SessionListItem) => !isTerminal(s.status)) ? POLL_MS : false),
  });
}

export function useSessionStatus(id: string) {
  const qc = useQueryClient();
  // Changes are pushed over Server-Sent Events; polling takes over whenever that stream is not up.
  const pushed = useStatusEvents(id, keys.status(id));
  return useQuery({
    queryKey: keys.status(id),
    queryFn: () => callAsClinician(qc, getSessionStatus, { params: { ambient_session_id: id } }),
    refetchInterval: (q) => (pushed || (q.state.data && isTerminal(q.state.data.status)) ? false : POLL_MS),
    retry: (n, err) => !(err instanceof ApiClientError && (err.code === 404 || err.code === 403)) && n < 3,
  });
}

export function useContent(id: string, status: SessionStatus | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.content(id),
    queryFn: () => callAsClinician(qc, getSessionContent, { params: { ambient_session_id: id } }),
    enabled: status === 'completed',
    // Edits are the source of truth once loaded; a background refetch must not overwrite a draft.
    staleTime: Infinity,
  });
}

export function useTranscript(id: string, enabled: boolean) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.transcript(id),
    queryFn: () => callAsClinician(qc, getTranscript, { params: { ambient_session_id: id } }),
    enabled,
  });
}

export function useRecordings(id: string, enabled: boolean) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.recordings(id),
    queryFn: () => callAsClinician(qc, listRecordings, { params: { ambient_session_id: id }, query: { download: 'false' } }),
    enabled,
    // Presigned URLs expire; re-read them well before.
    staleTime: 5 * 60_000,
  });
}

export interface NewVisit {
  context: SessionContext;
}

/** Creates the session, then sets its context: the two calls a new visit needs. */
export function useCreateVisit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ context }: NewVisit) => {
      const created = await callAsClinician(qc, createSession, { body: {} });
      await callAsClinician(qc, setSessionContext, { params: { ambient_session_id: created.ambient_session_id }, body: context }, { validate: false });
      return created;
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ['v1', 'sessions'] }),
  });
}

export function useSaveSection(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ loinc, content }: { loinc: string; content: string }) =>
      callAsClinician(qc, updateNoteSection, { params: { ambient_session_id: id, loinc }, body: { content } }),
  });
}

export function useRewrite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RewriteRequest) => callAsClinician(qc, rewriteSelection, { body: req }),
  });
}
