import type { JWK } from 'jose';
import { exportJWK, generateKeyPair } from 'jose';
import { ADMIN_KEY } from '../server/test/harness';
import type { E2EState } from './fixtures';

async function admin(baseUrl: string, p: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`e2e provisioning: POST ${p} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * The partner the clinician and the partner admin belong to (trusted through a key the suite holds), and the
 * suite's users, on a fresh server: the shared one (global-setup) or one a test owns and restarts.
 */
export async function provisionUsers(baseUrl: string): Promise<Pick<E2EState, 'users' | 'partner'>> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'e2e-key-1';
  const partnerId = 'e2e-clinic';
  const issuer = 'https://idp.e2e.test/clinic';
  await admin(baseUrl, '/api/admin/v1/partners', {
    partner_id: partnerId,
    name: 'E2E Clinic',
    type: 'STANDARD',
    issuer,
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }] },
  });
  const password = 'e2e-Passw0rd!';
  const users = {
    serviceAdmin: { email: 'root@e2e.test', password, role: 'service_admin' as const },
    partnerAdmin: { email: 'admin@clinic.e2e.test', password, role: 'partner_admin' as const, partner_id: partnerId },
    clinician: { email: 'dr.e2e@clinic.e2e.test', password, role: 'clinician' as const, partner_id: partnerId, provider_email: 'dr.e2e@clinic.e2e.test' },
  };
  for (const u of Object.values(users)) await admin(baseUrl, '/api/admin/v1/users', { name: u.email.split('@')[0], ...u });
  const privateJwk: JWK = await exportJWK(privateKey);
  return { users, partner: { partnerId, issuer, kid, privateJwk } };
}
