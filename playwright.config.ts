import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * One real server (server/main.ts on a fresh DATA_DIR) serves every test; global-setup starts it and creates
 * the users and the partner the tests sign in with. The port is fixed here so the runner and its workers agree.
 */
// Below Linux's ephemeral range (32768 and up), so no port the OS hands another test server can be this one.
process.env.E2E_PORT ||= String(20_000 + Math.floor(Math.random() * 12_000));
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;
export const E2E_DIR = path.resolve(import.meta.dirname, 'tmp', 'e2e');
/** Spoken test audio the fake microphone plays (written by global-setup with espeak-ng). */
export const FAKE_AUDIO_WAV = path.join(E2E_DIR, 'fake-audio.wav');

export default defineConfig({
  testDir: './e2e',
  testMatch: /.*\.spec\.ts$/,
  globalSetup: './e2e/global-setup.ts',
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { outputFolder: 'playwright-report', open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    screenshot: 'on',
    // A failed test keeps its trace with DOM snapshots; the trace's screencast (a JPEG frame whenever the page
    // paints, throughout minutes of live transcript) is left out for the CPU it took from the rest of the suite.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    video: 'off',
    viewport: { width: 1024, height: 800 },
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1024, height: 800 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-audio-capture=${FAKE_AUDIO_WAV}`,
          ],
        },
        permissions: ['microphone'],
      },
    },
  ],
});
