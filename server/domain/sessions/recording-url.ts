import crypto from 'node:crypto';
import type { AppContext } from '../../context';
import type { Config } from '../../config';
import { loadOrCreateKeyFile } from '../../auth/secret-box';

/** How long a recording URL stays valid. */
export const RECORDING_URL_TTL_SECONDS = 3600;

/**
 * The HMAC key for recording URLs: derived from SECRET_KEY when configured (so every process of a
 * scaled-out deployment agrees), else a random key kept in DATA_DIR. Never the key that seals secrets.
 */
export function loadRecordingUrlKey(config: Pick<Config, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return Buffer.from(crypto.hkdfSync('sha256', config.secretKey, 'ambient', 'recording-url-v1', 32));
  return loadOrCreateKeyFile(config.dataDir, 'recording-url.key');
}

/** The key createServices loaded (loadRecordingUrlKey). */
export function recordingUrlKey(app: Pick<AppContext, 'services'>): Buffer {
  return app.services.recordingUrlKey;
}

function payload(recordingId: string, expires: number, download: boolean): string {
  return `recording-audio\n${recordingId.toLowerCase()}\n${expires}\n${download ? 1 : 0}`;
}

export function signRecording(key: Buffer, recordingId: string, expires: number, download: boolean): string {
  return crypto.createHmac('sha256', key).update(payload(recordingId, expires, download)).digest('base64url');
}

export type SignatureCheck = 'ok' | 'expired' | 'invalid';

/** Constant-time check of a recording URL's signature, then of its expiry. */
export function verifyRecordingSignature(
  key: Buffer,
  recordingId: string,
  expires: number,
  download: boolean,
  sig: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): SignatureCheck {
  const expected = Buffer.from(signRecording(key, recordingId, expires, download), 'base64url');
  const given = Buffer.from(sig, 'base64url');
  const same = given.length === expected.length && crypto.timingSafeEqual(given, expected);
  if (!same) return 'invalid';
  return expires < nowSeconds ? 'expired' : 'ok';
}

export function recordingAudioUrl(baseUrl: string, key: Buffer, recordingId: string, download: boolean, nowSeconds = Math.floor(Date.now() / 1000)) {
  const expires = nowSeconds + RECORDING_URL_TTL_SECONDS;
  const sig = signRecording(key, recordingId, expires, download);
  const url = `${baseUrl}/api/v1/recordings/${recordingId}/audio?expires=${expires}&sig=${sig}&download=${download ? 1 : 0}`;
  return { url, expiresAt: new Date(expires * 1000).toISOString() };
}
