import { and, asc, desc, eq, gt, gte, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '@/lib/errors';
import {
  NOTE_HISTORY_DEFAULT_LIMIT,
  NOTE_HISTORY_PAGE_CHARS,
  type NoteHistoryEvent,
  type NoteHistoryQuery,
  type NoteHistoryResponse,
} from '@/lib/contracts/note-signoff';
import type { SummarySection } from '@/lib/contracts/sessions';
import type { NoteReviewOutcome } from '@/lib/contracts/note-review';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import type { AppContext } from '../../context';
import { tenantDb, type TenantDb } from '../../db';
import { noteSectionVersions, noteSignoffs, providers, sessionContent, structuredDataVersions } from '../../db/schema';
import type { StructuredKind } from '@/lib/contracts/structured-data-edits';
import { decodeCursor, encodeCursor } from '../admin-sessions/cursor';
import { getOwnedSession } from '../sessions/get-owned-session';
import { readSignoffState } from './read-signoff-state';

/**
 * The history's sort key: time, then edits ahead of a sign or amend in the same millisecond (edits are written
 * first), then row id. Coded-data changes (issue 29) rank after both: a rank of its own keeps the cursors handed
 * out before them valid, and a coded change never shares its millisecond with a signature (signing locks it).
 */
type Rank = 0 | 1 | 2;
interface Key {
  at: Date;
  rank: Rank;
  id: number;
  chars: number;
}
const EDIT = 0;
const SIGNOFF = 1;
const STRUCTURED = 2;

/**
 * One page of the section edits, coded-data changes (issue 29), signs and amends of the caller's own note (issue 26 item 2: the whole
 * history in one answer reached 64 MB). Keyset-paged over both tables by (at, edit-before-signoff, id):
 * first the keys and text sizes of at most limit + 1 rows of each, then the texts of the page's rows only,
 * so neither the database nor this process holds more than one page of text.
 */
export async function getNoteHistory(app: AppContext, auth: ServicePrincipal, sessionId: string, query: Partial<NoteHistoryQuery> = {}): Promise<NoteHistoryResponse> {
  const session = await getOwnedSession(app, auth, sessionId);
  const limit = query.limit ?? NOTE_HISTORY_DEFAULT_LIMIT;
  const order = query.order ?? 'asc';
  const from = readCursor(query.cursor);
  const dir = order === 'asc' ? asc : desc;
  const tdb = tenantDb(app, auth);
  const state = await readSignoffState(tdb, session.id);

  const v = noteSectionVersions;
  const s = noteSignoffs;
  const c = structuredDataVersions;
  const [editKeys, signoffKeys, structuredKeys] = await Promise.all([
    tdb
      .select(v, { id: v.id, at: v.at, chars: sql<number>`length(${v.before}) + length(${v.after})` }, and(eq(v.sessionId, session.id), beyond(from, order, EDIT, v.at, v.id)))
      .orderBy(dir(v.at), dir(v.id))
      .limit(limit + 1),
    tdb
      .select(
        s,
        { id: s.id, at: s.at, chars: sql<number>`coalesce(length(${s.summary}::text), 0) + coalesce(length(${s.reason}), 0) + coalesce(length(${s.review}::text), 0)` },
        and(eq(s.sessionId, session.id), beyond(from, order, SIGNOFF, s.at, s.id)),
      )
      .orderBy(dir(s.at), dir(s.id))
      .limit(limit + 1),
    tdb
      .select(
        c,
        { id: c.id, at: c.at, chars: sql<number>`coalesce(length(${c.before}::text), 0) + coalesce(length(${c.after}::text), 0)` },
        and(eq(c.sessionId, session.id), beyond(from, order, STRUCTURED, c.at, c.id)),
      )
      .orderBy(dir(c.at), dir(c.id))
      .limit(limit + 1),
  ]);
  const sign = order === 'asc' ? 1 : -1;
  const keys: Key[] = [
    ...editKeys.map((k) => ({ ...k, rank: EDIT as 0, chars: Number(k.chars) })),
    ...signoffKeys.map((k) => ({ ...k, rank: SIGNOFF as 1, chars: Number(k.chars) })),
    ...structuredKeys.map((k) => ({ ...k, rank: STRUCTURED as 2, chars: Number(k.chars) })),
  ].sort((a, b) => sign * (a.at.getTime() - b.at.getTime() || a.rank - b.rank || a.id - b.id));

  const page: Key[] = [];
  let chars = 0;
  for (const k of keys) {
    // At least one event per page, however long, so a cursor always moves on.
    if (page.length === limit || (page.length > 0 && chars + k.chars > NOTE_HISTORY_PAGE_CHARS)) break;
    page.push(k);
    chars += k.chars;
  }
  const last = page.at(-1);
  const next_cursor = keys.length > page.length && last ? encodeCursor([last.at.toISOString(), last.rank, last.id]) : null;

  const events = await loadEvents(tdb, session.id, page);
  return { ...state, events, next_cursor };
}

function readCursor(cursor: string | undefined): Omit<Key, 'chars'> | null {
  const parts = decodeCursor(cursor, ['date', 'number', 'number']);
  if (!parts) return null;
  const [at, rank, id] = parts as [Date, number, number];
  if (rank !== EDIT && rank !== SIGNOFF && rank !== STRUCTURED) throw badRequest('cursor: is not a cursor returned by this list');
  return { at, rank: rank as Rank, id };
}

/** Rows of one table (all of one rank) that come after the cursor in the page order. */
function beyond(from: Omit<Key, 'chars'> | null, order: 'asc' | 'desc', rank: Rank, at: PgColumn, id: PgColumn): SQL | undefined {
  if (!from) return undefined;
  const [later, laterOrSame] = order === 'asc' ? [gt, gte] : [lt, lte];
  if (rank === from.rank) return or(later(at, from.at), and(eq(at, from.at), later(id, from.id)));
  const rankAhead = order === 'asc' ? rank > from.rank : rank < from.rank;
  return rankAhead ? laterOrSame(at, from.at) : later(at, from.at);
}

async function loadEvents(tdb: TenantDb, sessionId: string, page: Key[]): Promise<NoteHistoryEvent[]> {
  const editIds = page.filter((k) => k.rank === EDIT).map((k) => k.id);
  const signoffIds = page.filter((k) => k.rank === SIGNOFF).map((k) => k.id);
  const structuredIds = page.filter((k) => k.rank === STRUCTURED).map((k) => k.id);
  const [edits, signoffs, [current], coded] = await Promise.all([
    editIds.length === 0
      ? []
      : tdb
          .select(noteSectionVersions, { v: noteSectionVersions, name: providers.name }, and(eq(noteSectionVersions.sessionId, sessionId), inArray(noteSectionVersions.id, editIds)))
          .leftJoin(providers, eq(providers.id, noteSectionVersions.providerId)),
    signoffIds.length === 0
      ? []
      : tdb
          .select(noteSignoffs, { s: noteSignoffs, name: providers.name }, and(eq(noteSignoffs.sessionId, sessionId), inArray(noteSignoffs.id, signoffIds)))
          .leftJoin(providers, eq(providers.id, noteSignoffs.providerId)),
    tdb.select(sessionContent, { summary: sessionContent.summary }, eq(sessionContent.sessionId, sessionId)).limit(1),
    structuredIds.length === 0
      ? []
      : tdb
          .select(structuredDataVersions, { v: structuredDataVersions, name: providers.name }, and(eq(structuredDataVersions.sessionId, sessionId), inArray(structuredDataVersions.id, structuredIds)))
          .leftJoin(providers, eq(providers.id, structuredDataVersions.providerId)),
  ]);
  const titles = new Map<string, string>();
  for (const sec of (current?.summary as SummarySection[] | undefined) ?? []) titles.set(sec.loinc_code, sec.title);
  for (const { s } of signoffs) for (const sec of (s.summary as SummarySection[] | null) ?? []) if (!titles.has(sec.loinc_code)) titles.set(sec.loinc_code, sec.title);

  const byKey = new Map<string, NoteHistoryEvent>();
  for (const { v, name } of edits) {
    byKey.set(`${EDIT}:${v.id}`, {
      type: 'edit',
      at: v.at.toISOString(),
      by: { provider_id: v.providerId, name },
      loinc_code: v.loincCode,
      title: titles.get(v.loincCode) ?? null,
      before: v.before,
      after: v.after,
    });
  }
  for (const { s, name } of signoffs) {
    const by = { provider_id: s.providerId, name };
    const at = s.at.toISOString();
    byKey.set(
      `${SIGNOFF}:${s.id}`,
      s.action === 'sign'
        ? {
            type: 'sign',
            at,
            by,
            summary: ((s.summary as SummarySection[] | null) ?? []).map(({ sentences: _s, ...rest }) => rest),
            ...(s.review ? { review: s.review as NoteReviewOutcome } : {}),
          }
        : { type: 'amend', at, by, reason: s.reason ?? '' },
    );
  }
  for (const { v, name } of coded) {
    byKey.set(`${STRUCTURED}:${v.id}`, {
      type: 'structured_data',
      at: v.at.toISOString(),
      by: { provider_id: v.providerId, name },
      kind: v.kind as StructuredKind,
      action: v.action as 'add' | 'edit' | 'remove',
      position: v.position,
      before: v.before ?? null,
      after: v.after ?? null,
    });
  }
  // A row pruned between the two reads is left out rather than failing the page.
  return page.flatMap((k) => byKey.get(`${k.rank}:${k.id}`) ?? []);
}
