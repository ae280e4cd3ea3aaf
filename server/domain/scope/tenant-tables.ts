// The tenant-table registry lives in server/db/scope/tenant-tables.ts, where tenantDb applies it.
export { NOT_TENANT_OWNED, SCOPED_THROUGH_PARENT, TENANT_TABLES, type TenantTable } from '../../db/scope/tenant-tables';
