import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  ambientSessions,
  apiKeys,
  auditLog,
  ckgTransactions,
  noteSectionVersions,
  noteSignoffs,
  structuredDataVersions,
  organizations,
  partnerOrganizations,
  partners,
  patientContext,
  providerPartners,
  providers,
  rateLimits,
  recordings,
  sessionContent,
  sessionTransitions,
  streamSlots,
  visitNoteSettings,
  transcriptEntries,
  transcriptionSessions,
  userPreferences,
  users,
  webhookAttempts,
  webhookDeliveries,
} from '../schema';

export interface TenantColumns {
  /** Whose partner the row is. A null value (a service-wide API key or audit entry) belongs to no partner. */
  readonly partner: AnyPgColumn | null;
  /** Whose provider the row is; null for partner-wide data, which a provider sees for its whole partner. */
  readonly provider: AnyPgColumn | null;
}

/**
 * Every table whose rows belong to a tenant, with the columns that say which. scopeWhere and inScope accept
 * only these tables, and tenant-tables.test.ts fails when a table with a partner_id or provider_id column is
 * missing here, so a new tenant-owned table cannot be queried through the scope without being declared.
 */
export const TENANT_TABLES = {
  partners: { table: partners, partner: partners.partnerId, provider: null },
  partner_organizations: { table: partnerOrganizations, partner: partnerOrganizations.partnerId, provider: null },
  provider_partners: { table: providerPartners, partner: providerPartners.partnerId, provider: providerPartners.providerId },
  // Preferences follow the provider across partners; a partner admin does not read them.
  user_preferences: { table: userPreferences, partner: null, provider: userPreferences.providerId },
  // users.provider_id is the clinician link of a console user; the partner decides whose user it is.
  users: { table: users, partner: users.partnerId, provider: null },
  api_keys: { table: apiKeys, partner: apiKeys.partnerId, provider: null },
  ambient_sessions: { table: ambientSessions, partner: ambientSessions.partnerId, provider: ambientSessions.providerId },
  webhook_deliveries: { table: webhookDeliveries, partner: webhookDeliveries.partnerId, provider: null },
  // provider_id records who submitted the bundle; the patient's EMR context is the partner's.
  ckg_transactions: { table: ckgTransactions, partner: ckgTransactions.partnerId, provider: null },
  patient_context: { table: patientContext, partner: patientContext.partnerId, provider: null },
  transcription_sessions: { table: transcriptionSessions, partner: transcriptionSessions.partnerId, provider: transcriptionSessions.providerId },
  audit_log: { table: auditLog, partner: auditLog.partnerId, provider: null },
} as const satisfies Record<string, TenantColumns & { table: PgTable }>;

export type TenantTable = (typeof TENANT_TABLES)[keyof typeof TENANT_TABLES]['table'];

/**
 * Tables whose rows belong to a parent row's tenant. They carry no tenant column of their own (or one that
 * names an author, not an owner), so they are read only after the parent was found through the scope.
 */
export const SCOPED_THROUGH_PARENT = {
  session_transitions: { table: sessionTransitions, parent: ambientSessions },
  recordings: { table: recordings, parent: ambientSessions },
  transcript_entries: { table: transcriptEntries, parent: ambientSessions },
  session_content: { table: sessionContent, parent: ambientSessions },
  // provider_id is the clinician who edited or signed, who may differ from the session's provider.
  note_section_versions: { table: noteSectionVersions, parent: ambientSessions },
  note_signoffs: { table: noteSignoffs, parent: ambientSessions },
  structured_data_versions: { table: structuredDataVersions, parent: ambientSessions },
  visit_note_settings: { table: visitNoteSettings, parent: ambientSessions },
  webhook_attempts: { table: webhookAttempts, parent: webhookDeliveries },
} as const satisfies Record<string, { table: PgTable; parent: TenantTable }>;

/** Tables no tenant owns, and why. */
export const NOT_TENANT_OWNED = {
  // A provider identity may be linked to several partners; whose it is for a partner is provider_partners.
  providers: { table: providers },
  organizations: { table: organizations },
  rate_limits: { table: rateLimits },
  // Lease counters keyed by cap ('provider:<id>'); only counted to enforce the caps, never read for a tenant.
  stream_slots: { table: streamSlots },
} as const satisfies Record<string, { table: PgTable }>;

const COLUMNS = new Map<PgTable, TenantColumns>(Object.values(TENANT_TABLES).map((e) => [e.table, e]));

/** The tenant columns of a registered table; an unregistered one is a programming error, refused loudly. */
export function tenantColumns(table: TenantTable): TenantColumns {
  const found = COLUMNS.get(table);
  if (!found) throw new Error('table is not registered in TENANT_TABLES; its rows cannot be scoped');
  return found;
}
