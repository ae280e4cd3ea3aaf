/**
 * Admin API contracts beyond partners and webhook deliveries: providers per partner, sessions, API keys,
 * console users, the audit log, trust testing and the demo setup. Shared by handlers, OpenAPI and the console.
 */
import { z } from 'zod';
import { Specialty } from '@/lib/info';
import { PartnerId } from './partners';
import { WebhookDelivery } from './webhooks';

const uuid = z.uuid({ message: 'must be a UUID' });

const dateParam = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(s) && !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date or date-time')
  .transform((s) => new Date(s));

export const Limit = z.coerce.number().int('must be an integer').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50);
export const Cursor = z.string().max(400).optional();

const page = { limit: Limit, cursor: Cursor };

// ---------------------------------------------------------------------------------------------
// Providers
// ---------------------------------------------------------------------------------------------

export const ListProvidersQuery = z.object({ q: z.string().trim().max(255).optional(), ...page });
export type ListProvidersQuery = z.infer<typeof ListProvidersQuery>;

export const AdminProvider = z
  .object({
    provider_id: z.uuid(),
    name: z.string(),
    email: z.string().nullable(),
    specialty: z.string(),
    organization_external_id: z.string(),
    partner_provider_id: z.string().nullable().describe("the partner's provider_id (BEARER and SINGLE_AUTH_TOKEN partners)"),
    link_state: z.enum(['linked']).describe('linked to this partner (registered through it or linked later)'),
    linked_at: z.string(),
    created_at: z.string(),
    last_login_at: z.string().nullable().describe('last login through this partner'),
    disabled: z.boolean(),
  })
  .meta({ id: 'AdminProvider' });
export type AdminProvider = z.infer<typeof AdminProvider>;

const nonEmpty = (max: number) => z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A provider added from the console, as register would add it but without a partner_token. */
export const CreateProviderRequest = z
  .object({
    name: nonEmpty(255),
    email: z.string().trim().toLowerCase().email('must be an email address').max(320, 'must be at most 320 characters'),
    specialty: Specialty.optional(),
    organization_external_id: nonEmpty(255).optional().describe('the organisation the provider belongs to; default console:<partner_id>'),
    provider_id: nonEmpty(255).optional().describe("the partner's provider_id: required for BEARER and SINGLE_AUTH_TOKEN partners, matching their pattern"),
  })
  .meta({ id: 'CreateProviderRequest' });
export type CreateProviderRequest = z.infer<typeof CreateProviderRequest>;

export const AdminProviderList = z
  .object({ providers: z.array(AdminProvider), next_cursor: z.string().nullable() })
  .meta({ id: 'AdminProviderList' });
export type AdminProviderList = z.infer<typeof AdminProviderList>;

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

export const SESSION_STATUSES = ['created', 'ready', 'running', 'completed', 'skipped', 'failed', 'aborted'] as const;

export const ListAdminSessionsQuery = z.object({
  partner_id: PartnerId.optional(),
  provider_id: uuid.optional(),
  provider: z.string().trim().min(1, 'must not be empty').max(320, 'must be at most 320 characters').optional().describe("part of the provider's name or email"),
  status: z.enum(SESSION_STATUSES).optional(),
  from: dateParam.optional(),
  to: dateParam.optional(),
  ...page,
});
export type ListAdminSessionsQuery = z.infer<typeof ListAdminSessionsQuery>;

export const AdminSession = z
  .object({
    ambient_session_id: z.uuid(),
    encounter_id: z.uuid(),
    note_id: z.uuid(),
    emr_encounter_id: z.string().nullable(),
    partner_id: z.string(),
    provider_id: z.uuid(),
    provider_name: z.string(),
    provider_email: z.string().nullable(),
    status: z.string(),
    error_code: z.string().nullable(),
    audio_ms: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AdminSession' });
export type AdminSession = z.infer<typeof AdminSession>;

export const AdminSessionList = z
  .object({ sessions: z.array(AdminSession), next_cursor: z.string().nullable() })
  .meta({ id: 'AdminSessionList' });
export type AdminSessionList = z.infer<typeof AdminSessionList>;

export const AdminSessionDetail = z
  .object({
    session: AdminSession.extend({
      error_detail: z.string().nullable(),
      started_at: z.string().nullable(),
      context: z.unknown().nullable(),
    }),
    transitions: z.array(z.object({ from_status: z.string().nullable(), to_status: z.string(), reason: z.string().nullable(), at: z.string() })),
    recordings: z.array(
      z.object({
        recording_id: z.uuid(),
        sequence_number: z.number().int(),
        start_time: z.string().nullable(),
        ended_at: z.string().nullable(),
        durable_bytes: z.number().int(),
        audio_url: z.string().describe('signed, expiring URL of the WAV audio (relative to this service)'),
        expires_at: z.string(),
      }),
    ),
    transcript: z.array(
      z.object({
        transcript_id: z.uuid(),
        recording_id: z.uuid(),
        source: z.string(),
        speaker: z.string(),
        text: z.string(),
        start_offset_ms: z.number(),
        end_offset_ms: z.number(),
      }),
    ),
    content: z
      .object({ summary: z.unknown(), structured_data: z.unknown(), engine: z.string(), updated_at: z.string() })
      .nullable(),
    webhook_deliveries: z.array(WebhookDelivery),
  })
  .meta({ id: 'AdminSessionDetail' });
export type AdminSessionDetail = z.infer<typeof AdminSessionDetail>;

// ---------------------------------------------------------------------------------------------
// API keys
// ---------------------------------------------------------------------------------------------

export const CreateApiKeyRequest = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(255),
    partner_id: PartnerId.nullable().optional().describe('scope the key to one partner; omit for a service-wide key (service admins only)'),
  })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequest>;

export const ApiKey = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('the first characters of the key, to recognise it'),
    partner_id: z.string().nullable(),
    created_by: z.string().nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyWithSecret = ApiKey.extend({ key: z.string().describe('shown only in this response; only its SHA-256 is stored') }).meta({
  id: 'ApiKeyWithSecret',
});
export type ApiKeyWithSecret = z.infer<typeof ApiKeyWithSecret>;

export const ApiKeyList = z.object({ api_keys: z.array(ApiKey) }).meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

// ---------------------------------------------------------------------------------------------
// Console users
// ---------------------------------------------------------------------------------------------

export const UserRole = z.enum(['service_admin', 'partner_admin', 'clinician']);
export type UserRole = z.infer<typeof UserRole>;

export const CreateUserRequest = z
  .object({
    email: z.string().trim().toLowerCase().email('must be an email address').max(320),
    password: z.string().min(10, 'must be at least 10 characters').max(1024).nullable().optional().describe('omit for users who sign in through OIDC'),
    // `admin` is accepted as the command-line alias of service_admin.
    role: z.enum(['service_admin', 'partner_admin', 'clinician', 'admin']).transform((r) => (r === 'admin' ? 'service_admin' : r)),
    name: z.string().trim().min(1).max(255).optional(),
    partner_id: PartnerId.optional(),
    provider_email: z.string().trim().toLowerCase().email('must be an email address').max(320).optional(),
    provider_id: uuid.optional(),
  })
  .superRefine((u, ctx) => {
    if (u.role === 'partner_admin' && !u.partner_id) ctx.addIssue({ code: 'custom', path: ['partner_id'], message: 'is required for partner_admin users' });
    if (u.role === 'clinician' && !u.provider_id && !u.partner_id) {
      ctx.addIssue({ code: 'custom', path: ['partner_id'], message: 'is required for a clinician unless provider_id names an existing provider' });
    }
    if (u.provider_email && u.provider_id) ctx.addIssue({ code: 'custom', path: ['provider_id'], message: 'give provider_email or provider_id, not both' });
    if (u.role !== 'clinician' && (u.provider_email || u.provider_id)) {
      ctx.addIssue({ code: 'custom', path: ['role'], message: 'only clinician users are linked to a provider' });
    }
  })
  .meta({ id: 'CreateUserRequest' });
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

export const AdminUser = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: UserRole,
    partner_id: z.string().nullable(),
    provider_id: z.string().nullable(),
    disabled: z.boolean(),
    created_at: z.string(),
    last_login_at: z.string().nullable(),
  })
  .meta({ id: 'AdminUser' });
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z.object({ users: z.array(AdminUser) }).meta({ id: 'AdminUserList' });
export type AdminUserList = z.infer<typeof AdminUserList>;

// ---------------------------------------------------------------------------------------------
// Audit log
// ---------------------------------------------------------------------------------------------

export const ListAuditQuery = z.object({
  actor: z.string().trim().max(320).optional(),
  action: z.string().trim().max(100).optional(),
  target_type: z.string().trim().max(100).optional(),
  partner_id: PartnerId.optional(),
  from: dateParam.optional(),
  to: dateParam.optional(),
  ...page,
});
export type ListAuditQuery = z.infer<typeof ListAuditQuery>;

export const AuditEntry = z
  .object({
    id: z.number().int(),
    at: z.string(),
    actor: z.string(),
    action: z.string(),
    target_type: z.string(),
    target_id: z.string().nullable(),
    partner_id: z.string().nullable(),
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditList = z.object({ entries: z.array(AuditEntry), next_cursor: z.string().nullable() }).meta({ id: 'AuditList' });
export type AuditList = z.infer<typeof AuditList>;

// ---------------------------------------------------------------------------------------------
// Trust test and demo
// ---------------------------------------------------------------------------------------------

export const TestTrustRequest = z
  .object({ partner_token: z.string().trim().min(1, 'must not be empty').max(16_384) })
  .meta({ id: 'TestTrustRequest' });
export type TestTrustRequest = z.infer<typeof TestTrustRequest>;

export const TestTrustResult = z
  .object({
    valid: z.boolean(),
    email: z.string().optional(),
    reason: z.string().optional().describe('why the token would be refused at register/login'),
  })
  .meta({ id: 'TestTrustResult' });
export type TestTrustResult = z.infer<typeof TestTrustResult>;

export const DemoSetup = z
  .object({
    partner_id: z.string(),
    issuer: z.string(),
    user: z.object({ email: z.string(), password: z.string().describe('reset to a new random value on every run') }),
    provider_email: z.string(),
    partner_token: z.string(),
    partner_token_expires_at: z.string(),
    curl: z.object({ register: z.string(), login: z.string() }),
  })
  .meta({ id: 'DemoSetup' });
export type DemoSetup = z.infer<typeof DemoSetup>;
