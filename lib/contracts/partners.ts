import { z } from 'zod';
import { providerIdPatternProblem } from '@/lib/provider-id-pattern';

export const PartnerType = z.enum(['STANDARD', 'BEARER', 'SINGLE_AUTH_TOKEN']);
export const AccessLevel = z.enum(['FULL', 'READONLY']);

const Jwk = z.object({ kty: z.string() }).passthrough();
export const Jwks = z.object({ keys: z.array(Jwk).min(1, 'must hold at least one key').max(50) });


const httpUrl = z
  .string()
  .max(2048)
  .refine((u) => {
    try {
      return ['http:', 'https:'].includes(new URL(u).protocol);
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** The clinic a partner's after-visit summaries name, with how a patient reaches it. */
export const ClinicSettings = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200),
    phone: z.string().trim().max(50).nullable().optional(),
    address: z.string().trim().max(300).nullable().optional(),
    website: z.string().trim().max(300).nullable().optional(),
  })
  .strict()
  .meta({ id: 'ClinicSettings' });
export type ClinicSettings = z.infer<typeof ClinicSettings>;

const partnerFields = {
  name: z.string().trim().min(1, 'must not be empty').max(255),
  type: PartnerType,
  access_level: AccessLevel.optional(),
  issuer: z.string().trim().min(1, 'must not be empty').max(2048),
  audience: z.string().max(2048).nullable().optional(),
  jwks_uri: httpUrl.nullable().optional(),
  jwks: Jwks.nullable().optional(),
  email_claim: z.string().trim().min(1).max(255).optional(),
  provider_id_pattern: z
    .string()
    .min(1)
    .superRefine((pattern, ctx) => {
      const problem = providerIdPatternProblem(pattern);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullable()
    .optional(),
  webhook_url: httpUrl.nullable().optional(),
  /**
   * Opt-in to the NOTE_SIGNED webhook (sent when a clinician signs or amends a note). Off by default:
   * a receiver built to the spec answers 400 to an unknown status. Partner admins may change it for
   * their own partner.
   */
  notify_note_signed: z.boolean({ error: 'must be true or false' }).optional(),
  /** Additive (issue 29): the clinic's name and contact, printed on the after-visit summary. Null clears it. */
  clinic: ClinicSettings.nullable().optional(),
};

export const PartnerId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be 1-128 letters, digits, dot, dash or underscore');

type TrustShape = {
  type?: string;
  access_level?: string;
  jwks_uri?: string | null;
  jwks?: unknown;
  provider_id_pattern?: string | null;
};

/** The partner rules, checked on a whole partner: a create body, or an update merged onto the stored record. */
export function partnerRuleViolation(p: TrustShape): { field: string; message: string } | null {
  if ((p.jwks_uri != null) === (p.jwks != null)) return { field: 'jwks_uri', message: 'exactly one of jwks_uri and jwks is required' };
  if (p.type === 'BEARER' && p.access_level === 'READONLY') return { field: 'access_level', message: 'BEARER partners cannot be READONLY' };
  if ((p.type === 'BEARER' || p.type === 'SINGLE_AUTH_TOKEN') && !p.provider_id_pattern) {
    return { field: 'provider_id_pattern', message: `is required for ${p.type} partners` };
  }
  return null;
}

export const CreatePartnerRequest = z
  .object({ partner_id: PartnerId.optional(), ...partnerFields })
  .superRefine((p, ctx) => {
    const v = partnerRuleViolation(p);
    if (v) ctx.addIssue({ code: 'custom', path: [v.field], message: v.message });
  })
  .meta({ id: 'CreatePartnerRequest' });
export type CreatePartnerRequest = z.infer<typeof CreatePartnerRequest>;

export const UpdatePartnerRequest = z
  .object(partnerFields)
  .partial()
  .meta({ id: 'UpdatePartnerRequest' });
export type UpdatePartnerRequest = z.infer<typeof UpdatePartnerRequest>;

export const Partner = z
  .object({
    partner_id: z.string(),
    name: z.string(),
    type: PartnerType,
    access_level: AccessLevel,
    issuer: z.string(),
    audience: z.string().nullable(),
    jwks_uri: z.string().nullable(),
    jwks: Jwks.nullable(),
    email_claim: z.string(),
    provider_id_pattern: z.string().nullable(),
    webhook_url: z.string().nullable(),
    notify_note_signed: z.boolean(),
    /** Additive (issue 29): null when not set. */
    clinic: ClinicSettings.nullable().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Partner' });
export type Partner = z.infer<typeof Partner>;

export const PartnerWithSecret = Partner.extend({ webhook_secret: z.string() }).meta({ id: 'PartnerWithSecret' });
export const PartnerList = z.object({ partners: z.array(Partner) }).meta({ id: 'PartnerList' });
export const WebhookSecret = z.object({ webhook_secret: z.string() }).meta({ id: 'WebhookSecret' });
