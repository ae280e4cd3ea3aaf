import { getTableColumns, getTableName, is, type SQL } from 'drizzle-orm';
import { PgDialect, PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../schema';
import { adminScope } from '../../domain/scope/admin-scope';
import { inScope } from './in-scope';
import { requireAllTenants } from '../../domain/scope/require-all-tenants';
import { resolvePartnerFilter } from '../../domain/scope/resolve-partner-filter';
import { sessionScope } from '../../domain/scope/session-scope';
import type { ProviderScope } from './scope';
import { scopeWhere } from './scope-where';
import { NOT_TENANT_OWNED, SCOPED_THROUGH_PARENT, TENANT_TABLES } from './tenant-tables';

const TENANT_COLUMNS = ['partner_id', 'provider_id'];
const tables = (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
const dialect = new PgDialect();
function render(q: SQL | undefined) {
  if (!q) return undefined;
  const { sql, params } = dialect.sqlToQuery(q);
  return { sql, params };
}

const provider: ProviderScope = { kind: 'provider', partnerId: 'p-a', providerId: '00000000-0000-4000-8000-00000000000a' };
const partnerAdmin = adminScope('partner_admin', 'p-a');
const serviceAdmin = adminScope('service_admin', null);

describe('tenant table registry', () => {
  it('classifies every table of the schema exactly once, under its SQL name', () => {
    const classified = [TENANT_TABLES, SCOPED_THROUGH_PARENT, NOT_TENANT_OWNED].flatMap((group) =>
      Object.entries(group).map(([name, e]) => {
        expect(getTableName(e.table), `${name} is registered under another table's name`).toBe(name);
        return name;
      }),
    );
    expect(new Set(classified).size, 'a table is classified twice').toBe(classified.length);
    expect(classified.sort()).toEqual(tables.map(getTableName).sort());
  });

  it('registers every table with a partner_id or provider_id column as tenant-owned or owned through its parent', () => {
    const withTenantColumn = tables
      .filter((t) => Object.values(getTableColumns(t)).some((c) => TENANT_COLUMNS.includes(c.name)))
      .map(getTableName);
    expect(withTenantColumn.length).toBeGreaterThan(10);
    for (const name of withTenantColumn) {
      expect(name in TENANT_TABLES || name in SCOPED_THROUGH_PARENT, `${name} has a tenant column but no scope: add it to TENANT_TABLES`).toBe(true);
    }
  });

  it("names each tenant table's own partner_id and provider_id columns", () => {
    for (const [name, e] of Object.entries(TENANT_TABLES)) {
      const own = Object.values(getTableColumns(e.table));
      expect(e.partner ?? e.provider, `${name} names no tenant column`).not.toBeNull();
      if (e.partner) expect([own.includes(e.partner), e.partner.name]).toEqual([true, 'partner_id']);
      if (e.provider) expect([own.includes(e.provider), e.provider.name]).toEqual([true, 'provider_id']);
      // A partner_id column left out would let a provider see its partner's other tenants' rows.
      if (own.some((c) => c.name === 'partner_id')) expect(e.partner, `${name}.partner_id is not its partner column`).not.toBeNull();
    }
  });

  it('gives each child table a foreign key to the parent it is scoped through', () => {
    for (const [name, e] of Object.entries(SCOPED_THROUGH_PARENT)) {
      const parents = getTableConfig(e.table).foreignKeys.map((fk) => getTableName(fk.reference().foreignTable));
      expect(parents, name).toContain(getTableName(e.parent));
    }
  });
});

describe('scopeWhere', () => {
  it('leaves a service admin unfiltered', () => {
    expect(scopeWhere(serviceAdmin, schema.ambientSessions)).toBeUndefined();
    expect(scopeWhere(serviceAdmin, schema.userPreferences)).toBeUndefined();
  });

  it('narrows a provider to its partner and, where the table has one, its provider', () => {
    expect(render(scopeWhere(provider, schema.ambientSessions))).toEqual({
      sql: '("ambient_sessions"."partner_id" = $1 and "ambient_sessions"."provider_id" = $2)',
      params: ['p-a', provider.providerId],
    });
    expect(render(scopeWhere(provider, schema.ckgTransactions))).toEqual({ sql: '"ckg_transactions"."partner_id" = $1', params: ['p-a'] });
    expect(render(scopeWhere(provider, schema.userPreferences))).toEqual({ sql: '"user_preferences"."provider_id" = $1', params: [provider.providerId] });
  });

  it('narrows a partner admin to its partner, and to nothing where rows are per provider only', () => {
    expect(render(scopeWhere(partnerAdmin, schema.ambientSessions))).toEqual({ sql: '"ambient_sessions"."partner_id" = $1', params: ['p-a'] });
    expect(render(scopeWhere(partnerAdmin, schema.userPreferences))).toEqual({ sql: 'false', params: [] });
    // A partner admin without a partner (never built by authentication) owns nothing.
    expect(render(scopeWhere(adminScope('partner_admin', null), schema.apiKeys))).toEqual({ sql: '"api_keys"."partner_id" = $1', params: [''] });
  });

  it('refuses a table that is not registered', () => {
    expect(() => scopeWhere(provider, schema.recordings as never)).toThrow(/not registered/);
  });
});

describe('inScope', () => {
  it('matches rows by the same rules as scopeWhere', () => {
    const own = { partnerId: 'p-a', providerId: provider.providerId };
    expect(inScope(provider, schema.ambientSessions, own)).toBe(true);
    expect(inScope(provider, schema.ambientSessions, { ...own, providerId: 'other' })).toBe(false);
    expect(inScope(provider, schema.ambientSessions, { ...own, partnerId: 'p-b' })).toBe(false);
    expect(inScope(provider, schema.ambientSessions, { partnerId: 'p-a' })).toBe(false);
    expect(inScope(provider, schema.webhookDeliveries, { partnerId: 'p-a' })).toBe(true);
    expect(inScope(partnerAdmin, schema.ambientSessions, { partnerId: 'p-a', providerId: 'anyone' })).toBe(true);
    expect(inScope(partnerAdmin, schema.users, { partnerId: null })).toBe(false);
    expect(inScope(partnerAdmin, schema.userPreferences, { providerId: provider.providerId })).toBe(false);
    expect(inScope(serviceAdmin, schema.apiKeys, { partnerId: null })).toBe(true);
  });
});

describe('resolvePartnerFilter', () => {
  it("gives a service admin the partner it named, and everyone else its own, with another partner's a 404", () => {
    expect(resolvePartnerFilter(serviceAdmin, 'p-b')).toBe('p-b');
    expect(resolvePartnerFilter(serviceAdmin, undefined)).toBeUndefined();
    expect(resolvePartnerFilter(serviceAdmin, null)).toBeUndefined();
    expect(resolvePartnerFilter(partnerAdmin, undefined)).toBe('p-a');
    expect(resolvePartnerFilter(partnerAdmin, 'p-a')).toBe('p-a');
    expect(resolvePartnerFilter(provider, null)).toBe('p-a');
    expect(() => resolvePartnerFilter(partnerAdmin, 'p-b')).toThrow(expect.objectContaining({ status: 404, message: 'partner p-b not found' }));
  });
});

describe('requireAllTenants and sessionScope', () => {
  it('lets only a service admin act on the whole service', () => {
    expect(() => requireAllTenants(serviceAdmin, 'create partners')).not.toThrow();
    for (const scope of [partnerAdmin, provider]) {
      expect(() => requireAllTenants(scope, 'create partners')).toThrow(expect.objectContaining({ status: 403, message: 'only service admins create partners' }));
    }
  });

  it("scopes a job to its session's provider and partner", () => {
    const { scope } = sessionScope({ partnerId: 'p-a', providerId: provider.providerId, status: 'running' } as { partnerId: string; providerId: string });
    expect(scope).toEqual(provider);
    expect(render(scopeWhere(scope, schema.patientContext))).toEqual({ sql: '"patient_context"."partner_id" = $1', params: ['p-a'] });
  });
});
