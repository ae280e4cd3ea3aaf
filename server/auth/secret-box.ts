import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Reversible encryption for secrets the service must use later (webhook signing secrets). */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** A random 32-byte key kept in DATA_DIR/keys (owner-only), created by whichever process needs it first. */
export function loadOrCreateKeyFile(dataDir: string, name: string): Buffer {
  const file = path.join(dataDir, 'keys', name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
}

export function loadSecretBox(dataDir: string, envKey: string | undefined): SecretBox {
  let key: Buffer;
  if (envKey) {
    key = crypto.createHash('sha256').update(envKey).digest();
  } else {
    key = loadOrCreateKeyFile(dataDir, 'secret.key');
  }
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const enc = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), enc.toString('base64')].join('.');
    },
    open(sealed) {
      const [v, iv, tag, enc] = sealed.split('.');
      if (v !== 'v1' || !iv || !tag || !enc) throw new Error('unrecognised sealed secret');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(enc, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${crypto.randomBytes(bytes).toString('base64url')}`;
}
