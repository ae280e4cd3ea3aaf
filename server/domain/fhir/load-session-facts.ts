import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ContentResponse } from '@/lib/contracts/sessions';
import type { NoteStatus } from '@/lib/contracts/note-status';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { recordings, sessionContent, sessionTransitions } from '../../db/schema';
import { getBlobStore } from '../../blob/index';
import { readPartContent } from '../../recordings/part-content';
import { sessionScope } from '../scope/session-scope';
import type { SessionRow } from '../sessions/get-owned-session';
import { readStoredContent } from '../sessions/get-session-content';
import { readNoteStatus } from './read-note-status';
import type { ExportRecording } from './types';

/** Per-session facts an export needs besides the content (shared by the session and encounter loaders). */
export interface SessionFacts {
  content: ContentResponse;
  engine: string | null;
  updatedAt: Date;
  noteStatus: NoteStatus;
  signedAt: Date | null;
  start: Date | null;
  end: Date | null;
  recordings: ExportRecording[];
}

/** The stored note (with the clinician's edits), its engine and sign-off, the visit's times and recordings. */
export async function loadSessionFacts(app: AppContext, session: SessionRow): Promise<SessionFacts> {
  // The session was found through the caller's scope; its rows are read in its own tenant's.
  const tdb = tenantDb(app, sessionScope(session));
  const row = await tdb.find(sessionContent, eq(sessionContent.sessionId, session.id));
  const [content, recs, transitions] = await Promise.all([
    readStoredContent(tdb, session.id),
    tdb.list(recordings, { where: eq(recordings.sessionId, session.id), orderBy: asc(recordings.sequenceNumber) }),
    tdb
      .select(
        sessionTransitions,
        { to: sessionTransitions.toStatus, at: sessionTransitions.at },
        and(eq(sessionTransitions.sessionId, session.id), inArray(sessionTransitions.toStatus, ['running', 'completed', 'skipped', 'failed', 'aborted'])),
      )
      .orderBy(asc(sessionTransitions.at), asc(sessionTransitions.id)),
  ]);
  const note = readNoteStatus(row);
  const parts = await readPartContent(getBlobStore(app), recs.map((r) => ({ ...r, startTimeMs: r.startTime?.getTime() ?? null })));
  // The visit ends when audio capture did (running); the note comes later.
  const end = transitions.find((t) => t.to === 'running')?.at ?? transitions[0]?.at ?? null;
  return {
    content,
    engine: row?.engine ?? null,
    updatedAt: row?.updatedAt ?? session.updatedAt,
    noteStatus: note.status,
    signedAt: note.signedAt,
    start: session.startedAt ?? recs[0]?.startTime ?? session.createdAt,
    end,
    recordings: recs.map((r, i) => ({
      id: r.id,
      sessionId: r.sessionId,
      sequenceNumber: r.sequenceNumber,
      startTime: r.startTime,
      durableBytes: r.durableBytes,
      content: parts[i]!,
    })),
  };
}

