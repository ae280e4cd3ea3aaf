import type { TenantDb } from '../../db';
import { auditLog } from '../../db/schema';

export interface AuditEntry {
  actor: string;
  action: string;
  targetType: string;
  targetId?: string | null;
  partnerId?: string | null;
  before?: unknown;
  after?: unknown;
}

/** Written in the acting principal's scope: a partner admin's entry is its partner's (stamped when not named). */
export async function recordAudit(tdb: TenantDb, entry: AuditEntry): Promise<void> {
  const partnerId = entry.partnerId ?? (tdb.scope.kind === 'all' ? null : undefined);
  await tdb.insert(auditLog, {
    actor: entry.actor,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    ...(partnerId === undefined ? {} : { partnerId }),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
