import type { Scope } from './scope';
import { tenantColumns, type TenantTable } from './tenant-tables';

/** The tenant columns of a row already read, by their schema property names. */
export interface TenantRow {
  partnerId?: string | null;
  providerId?: string | null;
}

/**
 * Whether a row read without the scope's filter (from a cache, or a row looked up by id) belongs to the
 * scope, by the same rules as scopeWhere. A missing tenant value never matches.
 */
export function inScope(scope: Scope, table: TenantTable, row: TenantRow): boolean {
  if (scope.kind === 'all') return true;
  const { partner, provider } = tenantColumns(table);
  if (partner) {
    if (row.partnerId !== scope.partnerId) return false;
  } else if (scope.kind === 'partner') {
    return false;
  }
  if (scope.kind === 'provider' && provider) return row.providerId === scope.providerId;
  return true;
}
