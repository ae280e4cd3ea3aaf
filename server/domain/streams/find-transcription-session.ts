import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import { transcriptionSessions } from '../../db/schema';
import type { Scoped } from '../scope/scope';
import { scopeWhere } from '../scope/scope-where';

/** The caller's dictation session id, or 404 (another tenant's session is indistinguishable from none). */
export async function findTranscriptionSession(app: Pick<AppContext, 'db'>, auth: Scoped, id: string): Promise<string> {
  const row = (
    await app.db
      .select({ id: transcriptionSessions.id })
      .from(transcriptionSessions)
      .where(and(eq(transcriptionSessions.id, id), scopeWhere(auth.scope, transcriptionSessions)))
      .limit(1)
  )[0];
  if (!row) throw notFound(`transcription session ${id} not found`);
  return row.id;
}
