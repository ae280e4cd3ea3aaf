/**
 * The database schema, one file per area in ./schema/. drizzle.config.ts reads this file, so every area
 * is re-exported here; code imports tables from here. A change needs a migration (CONTRIBUTING.md).
 */
export * from './schema/tenancy';
export * from './schema/accounts';
export * from './schema/sessions';
export * from './schema/notes';
export * from './schema/webhooks';
export * from './schema/ckg';
export * from './schema/dictation';
export * from './schema/audit';
export * from './schema/rate-limits';
export * from './schema/stream-slots';
export * from './schema/structured-data';
export * from './schema/note-style';
