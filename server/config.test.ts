import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, ENV_SCHEMA, loadConfig } from './config';

const ROOT = path.resolve(import.meta.dirname, '..');
const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', ...env });
const failure = (env: Record<string, string>): string => {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error(`no failure for ${JSON.stringify(env)}`);
};

describe('loadConfig checks every variable against the schema', () => {
  it('fails on a port that is not a number, naming the variable and the form', () => {
    expect(failure({ PORT: 'abc' })).toContain('PORT must be an integer from 0 to 65535 (got "abc")');
    expect(failure({ PORT: '70000' })).toContain('PORT must be an integer from 0 to 65535 (got "70000")');
  });

  it('names every bad variable at once', () => {
    const message = failure({ WORKERS: '-1', WEBHOOK_ALLOW_PRIVATE: 'maybe', HCC_MODEL: 'V99', LOG_LEVEL: 'loud' });
    expect(message).toContain('WORKERS must be an integer ≥ 0 (got "-1")');
    expect(message).toContain('WEBHOOK_ALLOW_PRIVATE must be true or false (also 1/0, yes/no, on/off) (got "maybe")');
    expect(message).toContain('HCC_MODEL must be one of V28, V24 (got "V99")');
    expect(message).toContain('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")');
  });

  it('explains lists, URLs and proxy ranges', () => {
    expect(failure({ WEBHOOK_RETRY_SCHEDULE: '10,soon' })).toContain('WEBHOOK_RETRY_SCHEDULE must be comma-separated numbers ≥ 0, such as 10,30,60 (got "10,soon")');
    expect(failure({ PUBLIC_BASE_URL: 'docs.example.org' })).toContain('PUBLIC_BASE_URL must be an http(s) URL');
    expect(failure({ TRUSTED_PROXIES: '10.0.0.0/8,proxy' })).toContain('TRUSTED_PROXIES must be TRUSTED_PROXIES: "proxy" is not an IP address');
    expect(failure({ SPEECH_VAD: 'webrtc' })).toContain('SPEECH_VAD must be one of silero, energy (got "webrtc")');
  });

  it('does not repeat a secret in the message', () => {
    const message = failure({ DATABASE_URL: 'mysql://user:hunter2@db' });
    expect(message).toContain('DATABASE_URL must be a postgres:// URL');
    expect(message).not.toContain('hunter2');
  });

  it('takes empty values as unset and fills in the defaults', () => {
    const config = load({ PORT: '', HOST: '0.0.0.0', WEBHOOK_ALLOW_PRIVATE: 'YES', HCC_MODEL: 'v24', AUTH_SESSION_MAX_AGE: '600' });
    expect(config).toMatchObject({ port: 3000, publicBaseUrl: 'http://0.0.0.0:3000', webhookAllowPrivate: true, hccModel: 'V24', workers: 1 });
    expect(config.webhookRetrySchedule).toEqual([10, 30, 60, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200]);
    expect(config.auth).toEqual({ secret: undefined, sessionMaxAgeSeconds: 600, oidc: undefined });
  });

  it('builds the OIDC settings only when issuer, client id and secret are all given', () => {
    const oidc = { AUTH_OIDC_ISSUER: 'https://idp.example.org', AUTH_OIDC_CLIENT_ID: 'console', AUTH_OIDC_CLIENT_SECRET: 's' };
    expect(load(oidc).auth.oidc).toEqual({ issuer: 'https://idp.example.org', clientId: 'console', clientSecret: 's', name: 'Single sign-on' });
    expect(load({ ...oidc, AUTH_OIDC_CLIENT_SECRET: '' }).auth.oidc).toBeUndefined();
  });
});

describe('the schema is the list of variables', () => {
  const names = Object.keys(ENV_SCHEMA.shape);

  it('documents every variable', () => {
    const undocumented = names.filter((name) => !ENV_SCHEMA.shape[name as keyof typeof ENV_SCHEMA.shape].description);
    expect(undocumented).toEqual([]);
  });

  it('declares every variable server/config.ts reads', () => {
    const source = fs.readFileSync(path.join(ROOT, 'server/config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\b(?:env|given)\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
    expect([...read].filter((name) => !names.includes(name))).toEqual([]);
  });

  it("matches README's configuration table", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Configuration'), readme.indexOf('\n## ', readme.indexOf('\n## Configuration') + 1));
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const inTable = new Set(rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1])));
    expect(names.filter((name) => !inTable.has(name)), 'in the schema, not in README').toEqual([]);
    expect([...inTable].filter((name) => !names.includes(name)), 'in README, not in the schema').toEqual([]);
  });
});
