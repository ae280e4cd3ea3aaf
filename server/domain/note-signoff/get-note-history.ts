import { asc, eq } from 'drizzle-orm';
import type { NoteHistoryEvent, NoteHistoryResponse } from '@/lib/contracts/note-signoff';
import type { SummarySection } from '@/lib/contracts/sessions';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { noteSectionVersions, noteSignoffs, providers, sessionContent } from '../../db/schema';
import { getOwnedSession } from '../sessions/get-owned-session';
import { readSignoffState } from './read-signoff-state';

/** Every section edit, sign and amend of the caller's own note, oldest first, with the signed versions. */
export async function getNoteHistory(app: AppContext, auth: ServicePrincipal, sessionId: string): Promise<NoteHistoryResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const state = await readSignoffState(app.db, session.id);
  const edits = await app.db
    .select({ v: noteSectionVersions, name: providers.name })
    .from(noteSectionVersions)
    .leftJoin(providers, eq(providers.id, noteSectionVersions.providerId))
    .where(eq(noteSectionVersions.sessionId, session.id))
    .orderBy(asc(noteSectionVersions.at), asc(noteSectionVersions.id));
  const signoffs = await app.db
    .select({ s: noteSignoffs, name: providers.name })
    .from(noteSignoffs)
    .leftJoin(providers, eq(providers.id, noteSignoffs.providerId))
    .where(eq(noteSignoffs.sessionId, session.id))
    .orderBy(asc(noteSignoffs.at), asc(noteSignoffs.id));
  const [current] = await app.db.select({ summary: sessionContent.summary }).from(sessionContent).where(eq(sessionContent.sessionId, session.id)).limit(1);
  const titles = new Map<string, string>();
  for (const sec of (current?.summary as SummarySection[] | undefined) ?? []) titles.set(sec.loinc_code, sec.title);
  for (const { s } of signoffs) for (const sec of (s.summary as SummarySection[] | null) ?? []) titles.set(sec.loinc_code, sec.title);

  const events: Array<NoteHistoryEvent & { order: number }> = [
    ...edits.map(({ v, name }) => ({
      type: 'edit' as const,
      at: v.at.toISOString(),
      by: { provider_id: v.providerId, name },
      loinc_code: v.loincCode,
      title: titles.get(v.loincCode) ?? null,
      before: v.before,
      after: v.after,
      order: v.at.getTime(),
    })),
    ...signoffs.map(({ s, name }) => {
      const by = { provider_id: s.providerId, name };
      const at = s.at.toISOString();
      return s.action === 'sign'
        ? { type: 'sign' as const, at, by, summary: ((s.summary as SummarySection[] | null) ?? []).map(({ sentences: _s, ...rest }) => rest), order: s.at.getTime() }
        : { type: 'amend' as const, at, by, reason: s.reason ?? '', order: s.at.getTime() };
    }),
  ];
  // Stable: an edit and a sign in the same millisecond keep edits (written first) ahead.
  events.sort((a, b) => a.order - b.order);
  return { ...state, events: events.map(({ order: _o, ...e }) => e as NoteHistoryEvent) };
}
