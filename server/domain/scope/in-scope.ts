// Checking a row already read (a cache entry) against a scope, by the rules server/db applies to queries.
export { inScope, type TenantRow } from '../../db/scope/in-scope';
