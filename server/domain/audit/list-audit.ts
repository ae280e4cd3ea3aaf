import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { AuditList, ListAuditQuery } from '@/lib/contracts/admin';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { tenantDb } from '../../db';
import { auditLog } from '../../db/schema';
import { decodeCursor, encodeCursor } from '../admin-sessions/cursor';
import { resolvePartnerFilter } from '../scope/resolve-partner-filter';

/** Newest first; partner admins see only entries about their partner. */
export async function listAudit(app: AppContext, q: ListAuditQuery, admin: AdminPrincipal): Promise<AuditList> {
  const partnerId = resolvePartnerFilter(admin.scope, q.partner_id);
  const where: SQL[] = [];
  if (partnerId) where.push(eq(auditLog.partnerId, partnerId));
  if (q.actor) where.push(eq(auditLog.actor, q.actor));
  if (q.action) where.push(eq(auditLog.action, q.action));
  if (q.target_type) where.push(eq(auditLog.targetType, q.target_type));
  if (q.from) where.push(gte(auditLog.at, q.from));
  if (q.to) where.push(lt(auditLog.at, q.to));
  const after = decodeCursor(q.cursor, ['number']);
  if (after) where.push(lt(auditLog.id, after[0] as number));
  const rows = await tenantDb(app, admin).list(auditLog, { where: and(...where), orderBy: desc(auditLog.id), limit: q.limit + 1 });
  const pageRows = rows.slice(0, q.limit);
  const last = pageRows.at(-1);
  return {
    entries: pageRows.map((r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: r.actor,
      action: r.action,
      target_type: r.targetType,
      target_id: r.targetId,
      partner_id: r.partnerId,
      before: r.before ?? null,
      after: r.after ?? null,
    })),
    next_cursor: rows.length > q.limit && last ? encodeCursor([last.id]) : null,
  };
}
