// Temporary, until server/pipeline reads through tenantDb (issue 28 item 2, helper h2): the scope filter is
// server/db's (server/db/scope/scope-where.ts), and code outside server/db reads through tenantDb/systemDb.
export { scopeWhere } from '../../db/scope/scope-where';
