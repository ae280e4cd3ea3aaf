/**
 * The data layer. Code outside server/db reads and writes through these: `tenantDb(app, auth)` for a
 * request or a job acting for one tenant (the scope is applied inside), `systemDb(app, reason)` for what acts
 * for every tenant or before there is one (authentication, workers, sweepers, migrations). Only server/db
 * imports the client (`.dependency-cruiser.cjs`, db-client-only-in-db).
 */
export { tenantDb, systemDb, ScopeViolation, type TenantDb, type DbOwner, type DbTx, type ScopedTable, type ChildTable, type Row, type NewRow, type ListOptions, type InsertOptions, type ScopedSelect, type ScopedSelectAll, type UpdateSet } from './tenant-db';
export { openDatabase, type Db, type Database } from './client';
export type { Scope, Scoped, AllTenantsScope, PartnerScope, ProviderScope } from './scope/scope';
export { TENANT_TABLES, SCOPED_THROUGH_PARENT, NOT_TENANT_OWNED, type TenantTable } from './scope/tenant-tables';
export { inScope, type TenantRow } from './scope/in-scope';
export { isUniqueViolation, pgErrorCode } from './pg-error';
export { newListenClient, destroyListenSocket, type ListenClient } from './listen-client';
