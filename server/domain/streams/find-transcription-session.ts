import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { transcriptionSessions } from '../../db/schema';
import type { Scoped } from '../scope/scope';

/** The caller's dictation session id, or 404 (another tenant's session is indistinguishable from none). */
export async function findTranscriptionSession(app: Pick<AppContext, 'db'>, auth: Scoped, id: string): Promise<string> {
  const row = (
    await tenantDb(app, auth).select(transcriptionSessions, { id: transcriptionSessions.id }, eq(transcriptionSessions.id, id))
      .limit(1)
  )[0];
  if (!row) throw notFound(`transcription session ${id} not found`);
  return row.id;
}
