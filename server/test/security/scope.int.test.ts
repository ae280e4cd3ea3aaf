/**
 * Every tenant-owned resource, called through its domain function with another tenant's scope (issue 13 item
 * 2). The intruding principals carry the victim's partner and provider ids and only their own scope, so a
 * function that filtered by the principal's ids instead of its scope would let them through: the scope alone
 * must answer 404 for another tenant's resource and leave it out of lists. In process, on PGlite (or a
 * fresh PostgreSQL database when TEST_DATABASE_URL is set); tenancy.int.test.ts covers the same over HTTP.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '@/lib/errors';
import { ListAdminSessionsQuery, ListAuditQuery, ListProvidersQuery, CreateProviderRequest, CreateUserRequest } from '@/lib/contracts/admin';
import { ListDeliveriesQuery } from '@/lib/contracts/webhooks';
import { SessionContext } from '@/lib/contracts/sessions';
import { FhirExportQuery } from '@/lib/contracts/fhir';
import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { adminPrincipal } from '../../auth/authenticate-admin';
import type { ServicePrincipal } from '../../auth/authenticate-service';
import * as schema from '../../db/schema';
import { getOwnedSession } from '../../domain/sessions/get-owned-session';
import { getOwnedSessionStatus } from '../../domain/sessions/get-owned-session-status';
import { getSessionContent } from '../../domain/sessions/get-session-content';
import { getTranscript } from '../../domain/sessions/get-transcript';
import { listRecordings } from '../../domain/sessions/list-recordings';
import { getEncounterContent } from '../../domain/sessions/get-encounter-content';
import { updateSessionContext } from '../../domain/sessions/update-session-context';
import { endSession } from '../../domain/sessions/end-session';
import { createUpload } from '../../domain/uploads/create-upload';
import { getUpload } from '../../domain/uploads/get-upload';
import { exportSessionFhir } from '../../domain/fhir/export-session-fhir';
import { exportEncounterFhir } from '../../domain/fhir/export-encounter-fhir';
import { exportAdminSessionFhir } from '../../domain/fhir/export-admin-session-fhir';
import { getVisitSummary } from '../../domain/visit-summary/get-visit-summary';
import { getNoteHistory } from '../../domain/note-signoff/get-note-history';
import { signNote } from '../../domain/note-signoff/sign-note';
import { amendNote } from '../../domain/note-signoff/amend-note';
import { updateSectionContent } from '../../domain/clinician-app/update-section-content';
import { updatePatientIdentity } from '../../domain/clinician-app/update-patient-identity';
import { listProviderSessions } from '../../domain/clinician-app/list-provider-sessions';
import { listNeedsReview } from '../../domain/clinician-app/list-needs-review';
import { searchProviderSessions } from '../../domain/clinician-app/search-provider-sessions';
import { rewriteSelection } from '../../domain/rewrite/rewrite-selection';
import { getCkgTransaction } from '../../domain/patient-context/get-ckg-transaction';
import { findTranscriptionSession } from '../../domain/streams/find-transcription-session';
import { getAdminSession } from '../../domain/admin-sessions/get-admin-session';
import { listAdminSessions } from '../../domain/admin-sessions/list-admin-sessions';
import { getDelivery } from '../../domain/webhooks/get-delivery';
import { listDeliveries } from '../../domain/webhooks/list-deliveries';
import { redeliverWebhook } from '../../domain/webhooks/redeliver-webhook';
import { sendTestWebhook } from '../../domain/webhooks/send-test-webhook';
import { getPartnerRow } from '../../domain/partners/get-partner';
import { listPartners } from '../../domain/partners/list-partners';
import { updatePartner } from '../../domain/partners/update-partner';
import { rotateWebhookSecret } from '../../domain/partners/rotate-webhook-secret';
import { testPartnerTrust } from '../../domain/partners/test-partner-trust';
import { listPartnerProviders } from '../../domain/providers/list-partner-providers';
import { disableProvider } from '../../domain/providers/disable-provider';
import { enableProvider } from '../../domain/providers/enable-provider';
import { createPartnerProvider } from '../../domain/providers/create-partner-provider';
import { listAudit } from '../../domain/audit/list-audit';
import { listApiKeys } from '../../domain/api-keys/list-api-keys';
import { revokeApiKey } from '../../domain/api-keys/revoke-api-key';
import { createApiKey } from '../../domain/api-keys/create-api-key';
import { listUsers } from '../../domain/users/list-users';
import { createUser } from '../../domain/users/create-user';
import { checkMedicationOrders } from '../../domain/sessions/check-medication-orders';
import { TENANT_TABLES } from '../../domain/scope/tenant-tables';
import { getPreferences } from '../../domain/preferences/get-preferences';
import { updatePreferences } from '../../domain/preferences/update-preferences';
import { openTenancyApp, PATIENT_NAME, SECTION_LOINC, seedProvider, seedTenant, type Tenant } from './fixtures/tenants';

let app: AppContext;
let close: () => Promise<void>;
let a: Tenant;
let b: Tenant;
/** A second provider of partner A: partner-wide data is shared with it, per-provider data is not. */
let a2: Awaited<ReturnType<typeof seedProvider>>;
const serviceAdmin = adminPrincipal('service_admin', null, 'test');
/** The day the tenants' sessions were seeded: a run that crosses midnight lists that day, not the next. */
let seededDay: string;

beforeAll(async () => {
  ({ app, close } = await openTenancyApp());
  a = await seedTenant(app.db, 'a');
  b = await seedTenant(app.db, 'b');
  a2 = await seedProvider(app.db, a.partnerId, 'a-second');
  seededDay = new Date().toISOString().slice(0, 10);
}, 240_000);
afterAll(() => close?.());

/** The victim's identity with the intruder's scope: only the scope may decide. */
const as = <P extends ServicePrincipal | AdminPrincipal>(victim: P, intruder: { scope: P['scope'] }): P => ({ ...victim, scope: intruder.scope });

async function outcome(call: () => Promise<unknown>): Promise<'allowed' | number> {
  try {
    await call();
    return 'allowed';
  } catch (err) {
    if (isApiError(err)) return err.status;
    throw err;
  }
}

type Owner = 'provider' | 'partner';
/** Per resource: whose it is, and the call. `control: false` where the owner's call needs a queue or engine this context lacks. */
const PROVIDER_CASES: Array<{ name: string; owner: Owner; call: (auth: ServicePrincipal, t: Tenant) => Promise<unknown>; control?: false }> = [
  { name: 'session', owner: 'provider', call: (auth, t) => getOwnedSession(app, auth, t.sessionId) },
  { name: 'session status', owner: 'provider', call: (auth, t) => getOwnedSessionStatus(app, auth, t.sessionId) },
  { name: 'content', owner: 'provider', call: (auth, t) => getSessionContent(app, auth, t.sessionId) },
  { name: 'transcript', owner: 'provider', call: (auth, t) => getTranscript(app, auth, t.sessionId) },
  { name: 'recordings', owner: 'provider', call: (auth, t) => listRecordings(app, auth, t.sessionId, false) },
  { name: 'encounter content', owner: 'provider', call: (auth, t) => getEncounterContent(app, auth, t.encounterId) },
  { name: 'session FHIR', owner: 'provider', call: (auth, t) => exportSessionFhir(app, auth, t.sessionId, FhirExportQuery.parse({})) },
  { name: 'encounter FHIR', owner: 'provider', call: (auth, t) => exportEncounterFhir(app, auth, t.encounterId, FhirExportQuery.parse({})) },
  { name: 'visit summary', owner: 'provider', call: (auth, t) => getVisitSummary(app, auth, t.sessionId) },
  { name: 'note history', owner: 'provider', call: (auth, t) => getNoteHistory(app, auth, t.sessionId) },
  { name: 'context', owner: 'provider', call: (auth, t) => updateSessionContext(app, auth, t.sessionId, { mode: 'merge', patch: { visit: { chief_complaint: 'x' } } }) },
  { name: 'patient identity', owner: 'provider', call: (auth, t) => updatePatientIdentity(app, auth, t.sessionId, { name: 'Changed' }) },
  { name: 'section edit', owner: 'provider', call: (auth, t) => updateSectionContent(app, auth, t.sessionId, SECTION_LOINC, 'changed') },
  { name: 'sign', owner: 'provider', call: (auth, t) => signNote(app, auth, t.sessionId) },
  { name: 'amend', owner: 'provider', call: (auth, t) => amendNote(app, auth, t.sessionId, 'wrong dose') },
  { name: 'end', owner: 'provider', call: (auth, t) => endSession(app, auth, t.sessionId) },
  // Uploads live in the blob store, which this context lacks: only the intruder's side (the session check comes first) runs.
  { name: 'upload', owner: 'provider', control: false, call: (auth, t) => createUpload(app, auth, t.sessionId, { size: 10, content_type: 'audio/wav' }) },
  { name: 'upload status', owner: 'provider', control: false, call: (auth, t) => getUpload(app, auth, t.sessionId, crypto.randomUUID()) },
  {
    name: 'rewrite',
    owner: 'provider',
    control: false,
    call: (auth, t) =>
      rewriteSelection(app, auth, { selected_text: 'x', selection_start: 0, selection_end: 1, instruction: 'CONCISE', ambient_session_id: t.sessionId }, 'req'),
  },
  { name: 'dictation session', owner: 'provider', call: (auth, t) => findTranscriptionSession(app, auth, t.dictationId) },
  { name: 'CKG transaction', owner: 'partner', call: (auth, t) => getCkgTransaction(app, auth, t.ckgId) },
];

const ADMIN_CASES: Array<{ name: string; call: (admin: AdminPrincipal, t: Tenant) => Promise<unknown>; control?: false }> = [
  { name: 'admin session', call: (admin, t) => getAdminSession(app, t.sessionId, admin) },
  { name: 'admin session FHIR', call: (admin, t) => exportAdminSessionFhir(app, admin, t.sessionId, FhirExportQuery.parse({})) },
  { name: 'sessions of the partner', call: (admin, t) => listAdminSessions(app, ListAdminSessionsQuery.parse({ partner_id: t.partnerId }), admin) },
  { name: 'webhook delivery', call: (admin, t) => getDelivery(app, t.deliveryId, admin) },
  { name: 'redelivery', call: (admin, t) => redeliverWebhook(app, t.deliveryId, admin), control: false },
  { name: 'test webhook', call: (admin, t) => sendTestWebhook(app, t.partnerId, admin) },
  { name: 'partner', call: (admin, t) => getPartnerRow(app, t.partnerId, admin) },
  { name: 'partner update', call: (admin, t) => updatePartner(app, t.partnerId, { notify_note_signed: false }, admin) },
  { name: 'webhook secret', call: (admin, t) => rotateWebhookSecret(app, t.partnerId, admin), control: false },
  { name: 'partner trust', call: (admin, t) => testPartnerTrust(app, t.partnerId, 'not-a-token', admin) },
  { name: 'providers of the partner', call: (admin, t) => listPartnerProviders(app, t.partnerId, ListProvidersQuery.parse({}), admin) },
  { name: 'provider disable', call: (admin, t) => disableProvider(app, t.partnerId, t.providerId, admin) },
  { name: 'provider enable', call: (admin, t) => enableProvider(app, t.partnerId, t.providerId, admin) },
  {
    name: 'provider for the partner',
    call: (admin, t) => createPartnerProvider(app, t.partnerId, CreateProviderRequest.parse({ name: 'Dr New', email: `n.${crypto.randomUUID()}@example.com` }), admin),
  },
  { name: 'audit of the partner', call: (admin, t) => listAudit(app, ListAuditQuery.parse({ partner_id: t.partnerId }), admin) },
  { name: 'API key revoke', call: (admin, t) => revokeApiKey(app, t.apiKeyId, admin) },
  { name: 'API key for the partner', call: (admin, t) => createApiKey(app, { name: 'k', partner_id: t.partnerId }, admin) },
  {
    name: 'user for the partner',
    call: (admin, t) => createUser(app, CreateUserRequest.parse({ email: `u.${crypto.randomUUID()}@example.com`, role: 'partner_admin', partner_id: t.partnerId }), admin),
  },
];

/**
 * Which cases above prove each tenant table's scope. A table registered in TENANT_TABLES without an entry
 * here fails the first test, so a new tenant-owned resource comes with its proof.
 */
const COVERAGE: Record<keyof typeof TENANT_TABLES, string[] | { none: string }> = {
  ambient_sessions: ['session', 'content', 'admin session', 'lists'],
  webhook_deliveries: ['webhook delivery', 'redelivery', 'lists'],
  ckg_transactions: ['CKG transaction'],
  patient_context: ['EMR medications'],
  transcription_sessions: ['dictation session'],
  provider_partners: ['providers of the partner', 'provider disable', 'provider enable'],
  partners: ['partner', 'partner update', 'webhook secret', 'partner trust', 'test webhook', 'lists'],
  api_keys: ['API key revoke', 'API key for the partner', 'lists'],
  users: ['user for the partner', 'lists'],
  audit_log: ['audit of the partner', 'lists'],
  user_preferences: ['preferences'],
  partner_organizations: { none: 'written when a provider joins a partner; no request reads it' },
};

async function snapshotOf(t: Tenant) {
  const [session] = await app.db.select().from(schema.ambientSessions).where(eq(schema.ambientSessions.id, t.sessionId));
  const [content] = await app.db.select().from(schema.sessionContent).where(eq(schema.sessionContent.sessionId, t.sessionId));
  const [partner] = await app.db.select().from(schema.partners).where(eq(schema.partners.partnerId, t.partnerId));
  const [key] = await app.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, t.apiKeyId));
  const links = await app.db.select().from(schema.providerPartners).where(eq(schema.providerPartners.partnerId, t.partnerId));
  const [delivery] = await app.db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.id, t.deliveryId));
  const users = await app.db.select().from(schema.users).where(eq(schema.users.partnerId, t.partnerId));
  const keys = await app.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.partnerId, t.partnerId));
  return { session, content, partner, key, links, delivery, users: users.length, keys: keys.length };
}

describe("another tenant's scope (issue 13 item 2)", () => {
  let before: Awaited<ReturnType<typeof snapshotOf>>;
  beforeAll(async () => {
    before = await snapshotOf(a);
  });

  it('covers every tenant-owned table with a case', () => {
    const names = new Set([...PROVIDER_CASES, ...ADMIN_CASES].map((c) => c.name).concat(['lists', 'EMR medications', 'preferences']));
    expect(Object.keys(COVERAGE).sort()).toEqual(Object.keys(TENANT_TABLES).sort());
    for (const [table, cases] of Object.entries(COVERAGE)) {
      if (Array.isArray(cases)) for (const c of cases) expect(names, `${table}: no case named ${c}`).toContain(c);
    }
  });

  it.each(PROVIDER_CASES)("$name: another partner's provider gets 404", async ({ call }) => {
    expect(await outcome(() => call(as(a.service, b.service), a))).toBe(404);
  });

  it.each(PROVIDER_CASES)('$name: another provider of the same partner gets 404 for per-provider data only', async ({ call, owner }) => {
    expect(await outcome(() => call(as(a.service, a2.service), a))).toBe(owner === 'provider' ? 404 : 'allowed');
  });

  it.each(ADMIN_CASES)("$name: another partner's admin gets 404", async ({ call }) => {
    expect(await outcome(() => call(as(a.admin, b.admin), a))).toBe(404);
  });

  it('a partner admin cannot reach its partner through a provider of another partner', async () => {
    expect(await outcome(() => disableProvider(app, b.partnerId, a.providerId, b.admin))).toBe(404);
    expect(await outcome(() => listPartnerProviders(app, b.partnerId, { ...ListProvidersQuery.parse({}), providerId: a.providerId }, b.admin))).toBe('allowed');
    expect((await listPartnerProviders(app, b.partnerId, { ...ListProvidersQuery.parse({}), providerId: a.providerId }, b.admin)).providers).toEqual([]);
  });

  it("EMR medications: an order is checked against the caller's partner's patient context only", async () => {
    await app.db.insert(schema.patientContext).values({
      partnerId: a.partnerId,
      emrPatientId: 'P-shared',
      medications: [{ name: 'lisinopril', status: 'active', active: true }],
      problems: [],
      allergies: [],
    });
    const context = SessionContext.parse({
      patient: { emr_patient_id: 'P-shared' },
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }] } },
    });
    await expect(checkMedicationOrders(app, a.service, context)).resolves.toBeUndefined();
    await expect(checkMedicationOrders(app, as(a.service, b.service), context)).rejects.toThrow(/no EMR medication list is known for this patient/);
  });

  it("preferences: a provider reads and writes its own, never another's", async () => {
    await updatePreferences(app, a.service, { personalization_preference: { verbosity: 'CONCISE' } });
    expect((await getPreferences(app, a.service)).personalization_preference.verbosity).toBe('CONCISE');
    for (const intruder of [b.service, a2.service]) {
      expect((await getPreferences(app, as(a.service, intruder))).personalization_preference.verbosity).toBe('BALANCED');
    }
    await updatePreferences(app, as(a.service, b.service), { personalization_preference: { verbosity: 'DETAILED' } });
    expect((await getPreferences(app, a.service)).personalization_preference.verbosity).toBe('CONCISE');
    expect((await getPreferences(app, b.service)).personalization_preference.verbosity).toBe('DETAILED');
  });

  it("lists leave out another tenant's rows", async () => {
    const ids = async (auth: ServicePrincipal) => [
      ...(await listProviderSessions(app, auth, seededDay)).map((s) => s.ambient_session_id),
      ...(await listNeedsReview(app, auth)).map((s) => s.ambient_session_id),
      ...(await searchProviderSessions(app, auth, PATIENT_NAME)).map((s) => s.ambient_session_id),
    ];
    expect(await ids(as(a.service, b.service))).toEqual([b.sessionId, b.sessionId, b.sessionId]);
    expect(await ids(as(a.service, a2.service))).toEqual([a2.sessionId, a2.sessionId, a2.sessionId]);

    const admin = async (who: AdminPrincipal) => ({
      sessions: (await listAdminSessions(app, ListAdminSessionsQuery.parse({}), who)).sessions.map((s) => s.ambient_session_id),
      audit: (await listAudit(app, ListAuditQuery.parse({}), who)).entries.map((e) => e.id),
      deliveries: (await listDeliveries(app, ListDeliveriesQuery.parse({}), who)).deliveries.map((d) => d.id),
      keys: (await listApiKeys(app, who)).api_keys.map((k) => k.id),
      users: (await listUsers(app, who)).users.map((u) => u.id),
      partners: (await listPartners(app, who)).map((p) => p.partner_id),
    });
    expect(await admin(as(a.admin, b.admin))).toEqual({
      sessions: [b.sessionId],
      audit: [b.auditId],
      deliveries: [b.deliveryId],
      keys: [b.apiKeyId],
      users: [b.userId],
      partners: [b.partnerId],
    });
    // Naming the other partner narrows nothing open: deliveries filter to none, the rest refuse it.
    expect((await listDeliveries(app, ListDeliveriesQuery.parse({ partner_id: a.partnerId }), b.admin)).deliveries).toEqual([]);
    const all = await admin(serviceAdmin);
    for (const t of [a, b]) {
      expect(all.sessions).toContain(t.sessionId);
      expect(all.audit).toContain(t.auditId);
      expect(all.deliveries).toContain(t.deliveryId);
      expect(all.keys).toContain(t.apiKeyId);
      expect(all.users).toContain(t.userId);
      expect(all.partners).toContain(t.partnerId);
    }
  });

  it("left every row of the victim as it was", async () => {
    expect(await snapshotOf(a)).toEqual(before);
  });

  it.each(PROVIDER_CASES.filter((c) => c.control !== false))('$name: the owner is not refused (the data is reachable)', async ({ call }) => {
    expect(await outcome(() => call(a.service, a))).not.toBe(404);
  });

  it.each(ADMIN_CASES.filter((c) => c.control !== false))("$name: the partner's own admin and a service admin are not refused", async ({ call }) => {
    expect(await outcome(() => call(a.admin, a))).not.toBe(404);
    expect(await outcome(() => call(serviceAdmin, a))).not.toBe(404);
  });
});
