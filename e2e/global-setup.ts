import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { exportJWK, generateKeyPair } from 'jose';
import { ADMIN_KEY, startServer } from '../server/test/harness';
import { E2E_DIR, FAKE_AUDIO_WAV, type E2EState } from './fixtures';

const SPOKEN =
  'Good morning, what brings you in today? I have had a cough for two weeks and a mild fever. ' +
  'Any shortness of breath? No. I will start amoxicillin five hundred milligrams three times a day for seven days.';

async function admin(baseUrl: string, p: string, body: unknown): Promise<any> {
  const res = await fetch(`${baseUrl}${p}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`global setup: POST ${p} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  fs.rmSync(E2E_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DIR, { recursive: true });
  const tts = spawnSync('espeak-ng', ['-s', '150', '-w', FAKE_AUDIO_WAV, SPOKEN]);
  if (tts.status !== 0) throw new Error(`espeak-ng failed (apt-get install -y espeak-ng): ${tts.stderr}`);

  const dataDir = path.join(E2E_DIR, 'data');
  const server = await startServer({ port: Number(process.env.E2E_PORT), dataDir });
  try {
    const baseUrl = server.baseUrl;
    // A partner the clinician and the partner admin belong to, trusted through a key this suite holds.
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

    const state: E2EState = {
      baseUrl,
      adminKey: ADMIN_KEY,
      dataDir,
      fakeAudioWav: FAKE_AUDIO_WAV,
      users,
      partner: { partnerId, issuer, kid, privateJwk: await exportJWK(privateKey) },
    };
    fs.writeFileSync(path.join(E2E_DIR, 'state.json'), JSON.stringify(state, null, 2));
    fs.writeFileSync(path.join(E2E_DIR, 'server.log'), '');
  } catch (err) {
    await server.stop();
    throw err;
  }
  return async () => {
    fs.writeFileSync(path.join(E2E_DIR, 'server.log'), server.logs());
    await server.stop();
  };
}
