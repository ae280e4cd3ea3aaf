import { and, asc, eq } from 'drizzle-orm';
import { conflict } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import { tenantDb } from '../../db';
import { sessionContent, transcriptEntries } from '../../db/schema';
import type { SpeakerRole } from '../../engines/speech/types';
import type { TranscriptLine } from '../../engines/notes/types';
import type { TranscriptWord } from '@/lib/transcript/confidence';
import { generateVisitNote } from '../../pipeline/generate-visit-note';
import { lockOwnedNote } from '../note-signoff/lock-owned-note';
import type { SessionRow } from '../sessions/get-owned-session';

/**
 * Writes a finished visit's note again from its stored final transcript, in the style now stored for it
 * (issue 31): no audio is decoded again. The note's sections, what was left out and the generated text
 * the review compares edits with are replaced; the coded data (and any edit the clinician made to it)
 * stay. A signed note refuses, as a section edit does, until it is amended.
 */
export async function restyleVisitNote(app: AppContext, auth: ServicePrincipal, session: SessionRow): Promise<void> {
  const tdb = tenantDb(app, auth);
  const rows = await tdb.list(transcriptEntries, {
    where: and(eq(transcriptEntries.sessionId, session.id), eq(transcriptEntries.source, 'final')),
    orderBy: asc(transcriptEntries.position),
  });
  if (!rows.length) throw conflict('the visit has no final transcript to write the note from');
  const lines: TranscriptLine[] = rows.map((r) => ({
    transcriptId: r.id,
    speaker: r.speaker as SpeakerRole,
    text: r.text,
    startMs: r.startOffsetMs,
    endMs: r.endOffsetMs,
    ...(r.confidence !== null ? { confidence: r.confidence } : {}),
    ...(r.words ? { words: r.words as TranscriptWord[] } : {}),
  }));
  const { note, engineName } = await generateVisitNote(app, session, lines);
  await tdb.transaction(async (tx) => {
    const locked = await lockOwnedNote(tx, session.id);
    if (locked.note.noteLocked) throw conflict('the note is signed; amend it (with a reason) before changing its style');
    await tx.update(
      sessionContent,
      { summary: note.summary, generatedSummary: note.summary, leftOut: note.left_out ?? [], engine: engineName, updatedAt: new Date() },
      eq(sessionContent.sessionId, session.id),
    );
  });
}
