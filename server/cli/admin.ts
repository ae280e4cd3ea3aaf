/**
 * `npm run admin -- <command>`: console users, admin API keys, partners and the demo setup.
 *
 * PGlite admits one process per data directory. When a live server holds DATA_DIR, the commands go through
 * that server's admin API with the token it leaves in DATA_DIR/admin-cli.token; otherwise the CLI opens the
 * database itself and calls the same domain functions.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { CreatePartnerRequest } from '@/lib/contracts/partners';
import { CreateApiKeyRequest, CreateUserRequest } from '@/lib/contracts/admin';
import { isApiError } from '@/lib/errors';
import { loadCliConfig } from '../config';
import { createLogger } from '../logger';
import { readLockOwner } from '../db/dir-lock';
import { CLI_TOKEN_FILE, closeAppContext, createAppContext } from '../bootstrap';
import { adminPrincipal, type AdminPrincipal } from '../auth/authenticate-admin';
import type { AppContext } from '../context';
import { zodMessage } from '../http/zod-message';
import { createUser } from '../domain/users/create-user';
import { listUsers } from '../domain/users/list-users';
import { createApiKey } from '../domain/api-keys/create-api-key';
import { listApiKeys } from '../domain/api-keys/list-api-keys';
import { revokeApiKey } from '../domain/api-keys/revoke-api-key';
import { createPartner } from '../domain/partners/create-partner';
import { listPartners } from '../domain/partners/list-partners';
import { setupDemo } from '../domain/demo/setup-demo';

const USAGE = `Usage: npm run admin -- <command> [options] [--json]

Commands:
  create-user     --email <email> --password <password> --role clinician|partner_admin|service_admin|admin
                  [--name <name>] [--partner-id <id>] [--provider-email <email> | --provider-id <uuid>]
                  (a clinician or partner_admin names its partner with --partner-id: see list-partners)
  list-users
  create-api-key  --name <name> [--partner-id <id>]      (prints the key once)
  list-api-keys
  revoke-api-key  --id <uuid>
  create-partner  --name <name> --type STANDARD|BEARER|SINGLE_AUTH_TOKEN --issuer <iss>
                  (--jwks-uri <url> | --jwks-file <file>) [--partner-id <id>] [--access-level FULL|READONLY]
                  [--audience <aud>] [--email-claim <claim>] [--provider-id-pattern <regex>] [--webhook-url <url>]
  list-partners
  demo            demo partner, demo clinician user and a ready partner_token with curl lines

Environment: DATA_DIR, DATABASE_URL, HOST/PORT (or ADMIN_URL) of a running server.`;

class UsageError extends Error {}

/** One way to run a command: through a running server's admin API, or on the database directly. */
interface Backend {
  mode: 'api' | 'direct';
  call<T>(method: 'GET' | 'POST' | 'DELETE', apiPath: string, body: unknown, direct: (app: AppContext, admin: AdminPrincipal) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const CLI_ADMIN: AdminPrincipal = adminPrincipal('service_admin', null, 'cli');

async function openBackend(): Promise<Backend> {
  const config = loadCliConfig();
  const owner = config.databaseUrl ? null : readLockOwner(config.dataDir, 'pglite');
  if (owner) {
    const tokenFile = path.join(config.dataDir, CLI_TOKEN_FILE);
    if (!fs.existsSync(tokenFile)) throw new Error(`the server (pid ${owner}) holds ${config.dataDir} but left no ${CLI_TOKEN_FILE}; is it still starting?`);
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    const base = (config.adminUrl || `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`).replace(/\/+$/, '');
    return {
      mode: 'api',
      async call(method, apiPath, body) {
        let res: Response;
        try {
          res = await fetch(`${base}${apiPath}`, {
            method,
            headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
            body: body !== undefined ? JSON.stringify(body) : undefined,
          });
        } catch {
          throw new Error(`the server (pid ${owner}) holds ${config.dataDir} but is not reachable at ${base}; set ADMIN_URL or HOST/PORT`);
        }
        const text = await res.text();
        const data = text ? JSON.parse(text) : undefined;
        if (!res.ok) throw new Error(`${res.status}: ${data?.message ?? text}`);
        return data;
      },
      async close() {},
    };
  }
  const app = await createAppContext({ config, log: createLogger(config.logLevel) });
  return {
    mode: 'direct',
    call: (_m, _p, _b, direct) => direct(app, CLI_ADMIN),
    close: () => closeAppContext(app),
  };
}

function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    // Field names become option names throughout, so the message names what to type.
    const message = zodMessage(r.error, 'option')
      .replace(/^option ([\w.]+):/, (_m, f: string) => `option --${f.replace(/_/g, '-')}:`)
      .replace(/\b(provider_id|provider_email|partner_id)\b/g, (f) => `--${f.replace(/_/g, '-')}`);
    throw new UsageError(/^option --partner-id:/.test(message) ? `${message} (npm run admin -- list-partners shows the partner ids)` : message);
  }
  return r.data;
}

function clean<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function table(rows: Array<Record<string, unknown>>, cols: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(cols), ...rows.map((r) => line(cols.map((c) => cell(r[c]))))].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values: o, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      role: { type: 'string' },
      name: { type: 'string' },
      'partner-id': { type: 'string' },
      'provider-email': { type: 'string' },
      'provider-id': { type: 'string' },
      id: { type: 'string' },
      type: { type: 'string' },
      issuer: { type: 'string' },
      'jwks-uri': { type: 'string' },
      'jwks-file': { type: 'string' },
      'access-level': { type: 'string' },
      audience: { type: 'string' },
      'email-claim': { type: 'string' },
      'provider-id-pattern': { type: 'string' },
      'webhook-url': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const command = positionals[0];
  if (!command || o.help) {
    console.log(USAGE);
    return command || o.help ? 0 : 2;
  }
  const out = (human: string, data: unknown) => console.log(o.json ? JSON.stringify(data, null, 2) : human);

  // Validate before opening the database, so a typo does not wait for a start-up.
  let run: (b: Backend) => Promise<void>;
  switch (command) {
    case 'create-user': {
      const body = parse(
        CreateUserRequest,
        clean({ email: o.email, password: o.password, role: o.role, name: o.name, partner_id: o['partner-id'], provider_email: o['provider-email'], provider_id: o['provider-id'] }),
      );
      if (!body.password) throw new UsageError('option password: is required');
      run = async (b) => {
        const user = await b.call('POST', '/api/admin/v1/users', body, (app, admin) => createUser(app, body, admin));
        out(`created ${user.role} ${user.email} (id ${user.id}${user.partner_id ? `, partner ${user.partner_id}` : ''}${user.provider_id ? `, provider ${user.provider_id}` : ''})`, user);
      };
      break;
    }
    case 'list-users':
      run = async (b) => {
        const { users } = await b.call('GET', '/api/admin/v1/users', undefined, (app, admin) => listUsers(app, admin));
        out(table(users, ['email', 'role', 'partner_id', 'provider_id', 'disabled', 'last_login_at']), users);
      };
      break;
    case 'create-api-key': {
      const body = parse(CreateApiKeyRequest, clean({ name: o.name, partner_id: o['partner-id'] }));
      run = async (b) => {
        const key = await b.call('POST', '/api/admin/v1/api-keys', body, (app, admin) => createApiKey(app, body, admin));
        out(
          `created API key "${key.name}" (id ${key.id}, ${key.partner_id ? `partner ${key.partner_id}` : 'service-wide'})\n` +
            `key (shown once, store it now): ${key.key}\n` +
            `use: Authorization: Bearer ${key.key}`,
          key,
        );
      };
      break;
    }
    case 'list-api-keys':
      run = async (b) => {
        const { api_keys } = await b.call('GET', '/api/admin/v1/api-keys', undefined, (app, admin) => listApiKeys(app, admin));
        out(table(api_keys, ['id', 'name', 'prefix', 'partner_id', 'created_at', 'last_used_at', 'revoked_at']), api_keys);
      };
      break;
    case 'revoke-api-key': {
      const id = parse(z.object({ id: z.uuid({ message: 'must be a UUID' }) }), { id: o.id }).id;
      run = async (b) => {
        const key = await b.call('DELETE', `/api/admin/v1/api-keys/${id}`, undefined, (app, admin) => revokeApiKey(app, id, admin));
        out(`revoked API key "${key.name}" (id ${key.id}) at ${key.revoked_at}`, key);
      };
      break;
    }
    case 'create-partner': {
      if (o['jwks-uri'] && o['jwks-file']) throw new UsageError('give --jwks-uri or --jwks-file, not both');
      let jwks: unknown;
      if (o['jwks-file']) {
        try {
          jwks = JSON.parse(fs.readFileSync(o['jwks-file'], 'utf8'));
        } catch (err) {
          throw new UsageError(`option jwks-file: ${(err as Error).message}`);
        }
      }
      const body = parse(
        CreatePartnerRequest,
        clean({
          partner_id: o['partner-id'],
          name: o.name,
          type: o.type,
          access_level: o['access-level'],
          issuer: o.issuer,
          audience: o.audience,
          jwks_uri: o['jwks-uri'],
          jwks,
          email_claim: o['email-claim'],
          provider_id_pattern: o['provider-id-pattern'],
          webhook_url: o['webhook-url'],
        }),
      );
      run = async (b) => {
        const p = await b.call('POST', '/api/admin/v1/partners', body, (app, admin) => createPartner(app, body, admin.actor));
        out(
          `created partner ${p.partner_id} (${p.type}, ${p.access_level})\nwebhook secret (shown once, store it now): ${p.webhook_secret}`,
          p,
        );
      };
      break;
    }
    case 'list-partners':
      run = async (b) => {
        const { partners } = await b.call('GET', '/api/admin/v1/partners', undefined, async (app, admin) => ({ partners: await listPartners(app, admin) }));
        out(table(partners, ['partner_id', 'name', 'type', 'access_level', 'issuer', 'webhook_url']), partners);
      };
      break;
    case 'demo':
      run = async (b) => {
        const d = await b.call('POST', '/api/admin/v1/demo', undefined, (app, admin) => setupDemo(app, admin));
        out(
          [
            `Demo partner: ${d.partner_id} (issuer ${d.issuer})`,
            `Console sign-in: ${d.user.email} / ${d.user.password}`,
            `partner_token (email ${d.provider_email}, expires ${d.partner_token_expires_at}):`,
            d.partner_token,
            '',
            'Register the provider (201 the first time, 409 once registered):',
            d.curl.register,
            '',
            'Log in (returns a service_token):',
            d.curl.login,
          ].join('\n'),
          d,
        );
      };
      break;
    default:
      throw new UsageError(`unknown command ${command}\n\n${USAGE}`);
  }

  const backend = await openBackend();
  try {
    await run(backend);
  } finally {
    await backend.close();
  }
  return 0;
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((err) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) {
      console.error(`error: ${(err as Error).message}`);
      process.exit(2);
    }
    console.error(`error: ${isApiError(err) ? `${err.status}: ${err.message}` : (err as Error).message}`);
    process.exit(1);
  });
