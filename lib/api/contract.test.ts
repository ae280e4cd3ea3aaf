import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CONTRACTS } from '@/lib/contracts/routes';
import { getSessionStatus } from '@/lib/contracts/routes/sessions';
import { testPartnerTrust } from '@/lib/contracts/routes/admin-providers';
import { ERRORS } from '@/lib/errors';
import { contractErrors, defineContract } from './contract';
import { contractPath } from './client';

describe('contractErrors', () => {
  it('derives 400 from inputs, 401 from auth, 403 from a service token, 413 from a body and 429 from a rate limit, plus those listed', () => {
    const c = defineContract({
      method: 'POST',
      path: '/x/{id}',
      summary: 's',
      tags: [],
      auth: 'service',
      write: true,
      rateLimit: 'x',
      params: z.object({ id: z.string() }),
      body: z.object({ a: z.string() }),
      responses: { 200: { description: 'ok' } },
      errors: ['conflict', 'not_found'],
    });
    expect(contractErrors(c).map((n) => ERRORS[n].status)).toEqual([400, 401, 403, 404, 409, 413, 429]);
    expect(contractErrors({ ...c, auth: 'none', write: undefined, rateLimit: undefined, params: undefined, body: undefined, errors: undefined })).toEqual([]);
  });

  it('gives a service read 403 too: a disabled provider is refused on every route its token reaches', () => {
    expect(contractErrors(getSessionStatus).map((n) => ERRORS[n].status)).toEqual([400, 401, 403, 404]);
  });
});

describe('the contract list', () => {
  it('declares each method and path once', () => {
    const keys = CONTRACTS.map((c) => `${c.method} ${c.path}`);
    expect(keys.length).toBeGreaterThan(60);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});

describe('contractPath', () => {
  it('fills and percent-encodes path parameters, and names a missing one', () => {
    expect(contractPath(testPartnerTrust, { partner_id: 'a b/c' })).toBe('/api/admin/v1/partners/a%20b%2Fc/test-trust');
    expect(() => contractPath(testPartnerTrust, {})).toThrow(/partner_id is missing/);
  });
});
