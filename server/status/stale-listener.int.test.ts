/**
 * Issue 26 item 6 (PostgreSQL): with the status listener's connection silent (its backend stopped, or a NAT
 * that forgot it), the web process answered `running` from its cache for at least 21 s after the database
 * said `completed`. Here the listener's connection runs through a TCP relay that goes silent on demand
 * without closing, as a half-open connection does. The web process must come to answer the database's
 * truth, and listen again on a new connection. PostgreSQL only: run directly without TEST_DATABASE_URL it
 * fails, it does not skip.
 */
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../test/partners';
import { call, createSession } from '../test/session-api';
import { getSessionStatus } from '@/lib/contracts/routes/sessions';
import { LISTENER_APPLICATION_NAME } from './pg-status-bus';
import { STATUS_CHANNEL } from './fanout';

/** Relays TCP to PostgreSQL; connections whose startup message names the status listener can be silenced. */
class Relay {
  readonly server: net.Server;
  listenerConnections = 0;
  private silenced = false;
  private readonly listeners: Array<{ client: net.Socket; upstream: net.Socket }> = [];

  constructor(target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      let first = true;
      let pair: { client: net.Socket; upstream: net.Socket } | null = null;
      client.on('data', (d) => {
        if (first) {
          first = false;
          if (d.includes(LISTENER_APPLICATION_NAME)) {
            pair = { client, upstream };
            this.listeners.push(pair);
            this.listenerConnections++;
          }
        }
        if (!(pair && this.silenced && this.listeners.indexOf(pair) < this.frozenCount)) upstream.write(d);
      });
      upstream.on('data', (d) => {
        if (!(pair && this.silenced && this.listeners.indexOf(pair) < this.frozenCount)) client.write(d);
      });
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
  }

  private frozenCount = 0;

  /** Every listener connection open now stops carrying bytes either way, and stays open. */
  silenceListeners(): void {
    this.silenced = true;
    this.frozenCount = this.listeners.length;
  }

  listen(): Promise<number> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', () => resolve((this.server.address() as net.AddressInfo).port)));
  }

  close(): void {
    for (const { client, upstream } of this.listeners) {
      client.destroy();
      upstream.destroy();
    }
    this.server.close();
  }
}

let server: TestServer;
let relay: Relay;
let direct: pg.Client;
let provider: TestProvider;

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL');
  const admin = new URL(process.env.TEST_DATABASE_URL);
  const name = `ambient_test_stale_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const adminClient = new pg.Client({ connectionString: admin.toString() });
  await adminClient.connect();
  await adminClient.query(`create database ${name}`);
  await adminClient.end();
  relay = new Relay({ host: admin.hostname, port: Number(admin.port || 5432) });
  const relayPort = await relay.listen();
  const viaRelay = new URL(admin.toString());
  viaRelay.host = `127.0.0.1:${relayPort}`;
  viaRelay.pathname = `/${name}`;
  const dbUrl = new URL(admin.toString());
  dbUrl.pathname = `/${name}`;
  // A long cache expiry, so what is tested here is the heartbeat; WORKERS=0 leaves the session as this test sets it.
  server = await startServer({ env: { DATABASE_URL: viaRelay.toString(), WORKERS: '0', SPEECH_ENGINE: 'none', STATUS_HEARTBEAT_MS: '500', STATUS_CACHE_TTL_MS: '600000' } });
  direct = new pg.Client({ connectionString: dbUrl.toString() });
  await direct.connect();
  const partner = await createTestPartner(server.baseUrl);
  provider = await registerAndLogin(server.baseUrl, partner);
}, 240_000);

afterAll(async () => {
  await direct?.end().catch(() => {});
  if (server?.proc.exitCode === null) await server.stop();
  relay?.close();
});

/** What another process (a worker) does when it completes a session: the change and its NOTIFY, in one transaction. */
async function completeElsewhere(sessionId: string): Promise<void> {
  await direct.query('begin');
  const { rows } = await direct.query<{ provider_id: string; partner_id: string }>(
    `update ambient_sessions set status = 'completed', updated_at = now() where id = $1 returning provider_id, partner_id`,
    [sessionId],
  );
  const t = await direct.query<{ id: string }>(`insert into session_transitions (session_id, from_status, to_status, reason) values ($1, 'created', 'completed', 'test') returning id`, [sessionId]);
  const change = { sessionId, status: 'completed', providerId: rows[0]!.provider_id, partnerId: rows[0]!.partner_id, seq: Number(t.rows[0]!.id) };
  await direct.query('select pg_notify($1, $2)', [STATUS_CHANNEL, JSON.stringify(change)]);
  await direct.query('commit');
}

/** Polls the status until it is `want`, or gives up after `bound` polls (a stale cache never gets there). */
async function pollUntil(sessionId: string, want: string, bound: number): Promise<string> {
  let last = '';
  for (let i = 0; i < bound; i++) {
    last = (await call(server, provider, getSessionStatus, { params: { ambient_session_id: sessionId } })).body.status;
    if (last === want) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

describe('status cache with a silent listener connection (issue 26 item 6)', () => {
  it('hears a change through a working listener, then answers the database once the listener goes silent, and listens again', async () => {
    // The bus works: a change made elsewhere is heard.
    const a = (await createSession(server, provider)).ambient_session_id;
    expect((await call(server, provider, getSessionStatus, { params: { ambient_session_id: a } })).body.status).toBe('created');
    await completeElsewhere(a);
    expect(await pollUntil(a, 'completed', 300)).toBe('completed');
    expect(relay.listenerConnections).toBeGreaterThanOrEqual(1);

    // The listener goes silent with a status cached; the change made now is never delivered to it.
    const b = (await createSession(server, provider)).ambient_session_id;
    expect((await call(server, provider, getSessionStatus, { params: { ambient_session_id: b } })).body.status).toBe('created');
    relay.silenceListeners();
    const silenced = relay.listenerConnections;
    await completeElsewhere(b);
    // 600 polls is a minute and more: far past the heartbeat, and far short of the cache expiry.
    expect(await pollUntil(b, 'completed', 600)).toBe('completed');

    // It listens again on a new connection, and hears changes through it.
    for (let i = 0; i < 600 && relay.listenerConnections <= silenced; i++) await new Promise((r) => setTimeout(r, 100));
    expect(relay.listenerConnections).toBeGreaterThan(silenced);
    expect(server.logs()).toContain('status listener disconnected; reconnecting');
    const c = (await createSession(server, provider)).ambient_session_id;
    expect((await call(server, provider, getSessionStatus, { params: { ambient_session_id: c } })).body.status).toBe('created');
    await completeElsewhere(c);
    expect(await pollUntil(c, 'completed', 300)).toBe('completed');
  }, 180_000);
});
