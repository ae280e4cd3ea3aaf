import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) with its recommended memory-hard parameters. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verifying against a real hash when the user does not exist keeps the response time from revealing which emails exist.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
