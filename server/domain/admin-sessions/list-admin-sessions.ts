import { and, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AdminSessionList, ListAdminSessionsQuery } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { ambientSessions, providers } from '../../db/schema';
import { decodeCursor, encodeCursor } from './cursor';
import { adminSessionDto } from './admin-session-dto';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';
import { tenantDb } from '../../db';

const createdMs = sql`date_trunc('milliseconds', ${ambientSessions.createdAt})`;

/**
 * Sessions newest first, filtered by partner, provider (its id, or part of its name or email), status and
 * creation time. A partner admin sees only its partner; naming another partner is a 404.
 */
export async function listAdminSessions(app: AppContext, q: ListAdminSessionsQuery, admin: AdminPrincipal): Promise<AdminSessionList> {
  const partnerId = resolvePartnerFilter(admin.scope, q.partner_id);
  const where: Array<SQL | undefined> = [];
  if (partnerId) where.push(eq(ambientSessions.partnerId, partnerId));
  if (q.provider_id) where.push(eq(ambientSessions.providerId, q.provider_id));
  if (q.provider) {
    const like = `%${q.provider.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(providers.name, like), ilike(providers.email, like)));
  }
  if (q.status) where.push(eq(ambientSessions.status, q.status));
  if (q.from) where.push(gte(ambientSessions.createdAt, q.from));
  if (q.to) where.push(lt(ambientSessions.createdAt, q.to));
  const after = decodeCursor(q.cursor, ['date', 'string']);
  if (after) {
    const [at, id] = after as [Date, string];
    // Compared at millisecond precision, the precision the cursor carries (PostgreSQL keeps microseconds).
    where.push(sql`(${createdMs}, ${ambientSessions.id}) < (${at.toISOString()}::timestamptz, ${id}::uuid)`);
  }
  const rows = await tenantDb(app, admin)
    .select(ambientSessions, { s: ambientSessions, name: providers.name, email: providers.email }, and(...where))
    .innerJoin(providers, eq(providers.id, ambientSessions.providerId))
    .orderBy(desc(createdMs), desc(ambientSessions.id))
    .limit(q.limit + 1);
  const pageRows = rows.slice(0, q.limit);
  const last = pageRows.at(-1);
  return {
    sessions: pageRows.map((r) => adminSessionDto(r.s, r)),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.s.createdAt.toISOString(), last.s.id]) : null,
  };
}
