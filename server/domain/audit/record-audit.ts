import type { Db } from '../../db/client';
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

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actor: entry.actor,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    partnerId: entry.partnerId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
