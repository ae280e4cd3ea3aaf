/** Who the data belongs to: partners, organizations, providers and the links between them. */
import { boolean, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const partners = pgTable('partners', {
  partnerId: text('partner_id').primaryKey(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  accessLevel: text('access_level').notNull(),
  issuer: text('issuer').notNull(),
  audience: text('audience'),
  jwksUri: text('jwks_uri'),
  jwks: jsonb('jwks'),
  emailClaim: text('email_claim').notNull().default('email'),
  providerIdPattern: text('provider_id_pattern'),
  webhookUrl: text('webhook_url'),
  /** Webhooks are signed with the secret itself, so it is stored encrypted rather than hashed. */
  webhookSecretEnc: text('webhook_secret_enc').notNull(),
  /** Opt-in: a NOTE_SIGNED webhook on sign and amend. Off by default because spec receivers answer 400 to an unknown status. */
  notifyNoteSigned: boolean('notify_note_signed').notNull().default(false),
  /** Additive (issue 29): the clinic name and contact the after-visit summary prints, e.g. {name, phone}. Null when not set. */
  clinic: jsonb('clinic'),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  externalId: text('external_id').notNull().unique(),
  createdAt: createdAt(),
});

export const partnerOrganizations = pgTable(
  'partner_organizations',
  {
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.organizationId] })],
);

export const providers = pgTable('providers', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** `email:<address>` for identities derived from a per-user token, `pid:<partner_id>:<provider_id>` otherwise. */
  identityKey: text('identity_key').notNull().unique(),
  email: text('email'),
  name: text('name').notNull(),
  specialty: text('specialty').notNull(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id),
  createdAt: createdAt(),
  lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
});

export const providerPartners = pgTable(
  'provider_partners',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id, { onDelete: 'cascade' }),
    partnerId: text('partner_id')
      .notNull()
      .references(() => partners.partnerId, { onDelete: 'cascade' }),
    partnerProviderId: text('partner_provider_id'),
    /** Per link: one partner disabling a shared provider must not cut off the provider's other partners. */
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.providerId, t.partnerId] })],
);
