import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { ADMIN_KEY, startServer } from '../server/test/harness';
import { E2E_DIR, FAKE_AUDIO_WAV, type E2EState } from './fixtures';
import { provisionUsers } from './provision';

const SPOKEN =
  'Good morning, what brings you in today? I have had a cough for two weeks and a mild fever. ' +
  'Any shortness of breath? No. I will start amoxicillin five hundred milligrams three times a day for seven days.';

export default async function globalSetup(_config: FullConfig): Promise<() => Promise<void>> {
  fs.rmSync(E2E_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DIR, { recursive: true });
  const tts = spawnSync('espeak-ng', ['-s', '150', '-w', FAKE_AUDIO_WAV, SPOKEN]);
  if (tts.status !== 0) throw new Error(`espeak-ng failed (apt-get install -y espeak-ng): ${tts.stderr}`);

  const dataDir = path.join(E2E_DIR, 'data');
  const server = await startServer({ port: Number(process.env.E2E_PORT), dataDir });
  try {
    const baseUrl = server.baseUrl;
    const { users, partner } = await provisionUsers(baseUrl);
    const state: E2EState = {
      baseUrl,
      adminKey: ADMIN_KEY,
      dataDir,
      fakeAudioWav: FAKE_AUDIO_WAV,
      users,
      partner,
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
