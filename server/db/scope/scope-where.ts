import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Scope } from './scope';
import { tenantColumns, type TenantTable } from './tenant-tables';

const NOTHING = sql`false`;

/**
 * The tenant filter of a scope on a registered table, to be and-ed into the query's where: undefined for
 * a service admin (every tenant), otherwise the partner and, for a provider on a provider-owned table, the
 * provider. A scope that the table cannot be narrowed to (a partner admin on per-provider preferences)
 * matches nothing.
 */
export function scopeWhere(scope: Scope, table: TenantTable): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  const { partner, provider } = tenantColumns(table);
  const parts: SQL[] = [];
  if (partner) parts.push(eq(partner, scope.partnerId));
  else if (scope.kind === 'partner') return NOTHING;
  if (scope.kind === 'provider' && provider) parts.push(eq(provider, scope.providerId));
  if (parts.length === 0) return NOTHING;
  return parts.length === 1 ? parts[0] : and(...parts);
}
