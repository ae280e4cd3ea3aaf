import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from 'jose';

type Key = CryptoKey | Uint8Array;

export interface ServiceClaims extends JWTPayload {
  /** Internal provider id. */
  sub: string;
  pid: string;
  org: string;
  ppid?: string;
}

export interface ServiceKeys {
  kid: string;
  publicJwks: { keys: JWK[] };
  sign(claims: Omit<ServiceClaims, 'iat' | 'exp' | 'iss' | 'aud'>, ttlSeconds: number): Promise<string>;
  verify(token: string): Promise<ServiceClaims>;
}

export const SERVICE_TOKEN_ISSUER = 'ambient-service';
export const SERVICE_TOKEN_AUDIENCE = 'ambient-api';
const ALG = 'ES256';

/** The key pair comes from SERVICE_SIGNING_JWK when set (scale-out), else it is generated once into DATA_DIR. */
export async function loadServiceKeys(dataDir: string, envJwk: string | undefined): Promise<ServiceKeys> {
  let privateJwk: JWK;
  if (envJwk) {
    privateJwk = JSON.parse(envJwk) as JWK;
  } else {
    const file = path.join(dataDir, 'keys', 'service-signing.jwk.json');
    if (fs.existsSync(file)) {
      privateJwk = JSON.parse(fs.readFileSync(file, 'utf8')) as JWK;
    } else {
      const { privateKey } = await generateKeyPair(ALG, { extractable: true });
      privateJwk = await exportJWK(privateKey);
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      fs.writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600, flag: 'wx' });
    }
  }
  const { d: _d, ...publicJwk } = privateJwk;
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateKey = (await importJWK({ ...privateJwk, alg: ALG }, ALG)) as Key;
  const publicKey = (await importJWK({ ...publicJwk, alg: ALG }, ALG)) as Key;
  const published: JWK = { ...publicJwk, kid, alg: ALG, use: 'sig' };
  return {
    kid,
    publicJwks: { keys: [published] },
    async sign(claims, ttlSeconds) {
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
        .setIssuer(SERVICE_TOKEN_ISSUER)
        .setAudience(SERVICE_TOKEN_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .sign(privateKey);
    },
    async verify(token) {
      const { payload } = await jwtVerify(token, publicKey, {
        algorithms: [ALG],
        issuer: SERVICE_TOKEN_ISSUER,
        audience: SERVICE_TOKEN_AUDIENCE,
        clockTolerance: 5,
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      if (typeof payload.pid !== 'string' || typeof payload.org !== 'string') throw new Error('missing claims');
      return payload as ServiceClaims;
    },
  };
}
