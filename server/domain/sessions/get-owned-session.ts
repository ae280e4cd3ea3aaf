import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import { tenantDb, type DbOwner } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { Scoped } from '../scope/scope';

export type SessionRow = typeof ambientSessions.$inferSelect;

/**
 * The caller's session, or 404: a session of another provider or partner is indistinguishable from
 * one that does not exist.
 */
export async function getOwnedSession(app: DbOwner, auth: Scoped, sessionId: string): Promise<SessionRow> {
  const row = await tenantDb(app, auth).find(ambientSessions, eq(ambientSessions.id, sessionId));
  if (!row) throw notFound(`ambient session ${sessionId} not found`);
  return row;
}
