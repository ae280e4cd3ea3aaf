import { and, eq } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { ambientSessions } from '../../db/schema';
import type { Scoped } from '../scope/scope';
import { scopeWhere } from '../scope/scope-where';

export type SessionRow = typeof ambientSessions.$inferSelect;

/**
 * The caller's session, or 404: a session of another provider or partner is indistinguishable from
 * one that does not exist.
 */
export async function getOwnedSession(app: AppContext | { db: Db }, auth: Scoped, sessionId: string): Promise<SessionRow> {
  const row = (
    await app.db
      .select()
      .from(ambientSessions)
      .where(and(eq(ambientSessions.id, sessionId), scopeWhere(auth.scope, ambientSessions)))
      .limit(1)
  )[0];
  if (!row) throw notFound(`ambient session ${sessionId} not found`);
  return row;
}
