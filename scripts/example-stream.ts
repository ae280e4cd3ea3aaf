/**
 * Streams a WAV file to /ws/ambient the way a partner integration would, and prints what comes back.
 *
 *   npm run example:stream -- visit.wav [--base-url http://127.0.0.1:3000] [--fast]
 *       (--token <service_token> --session <ambient_session_id> [--provider-id ID])
 *     | (--partner-id ID --partner-token JWT [--provider-id ID])   # register, login, create, context
 *
 * `npm run admin -- demo` prints a demo partner id and partner_token. Audio goes out in 100 ms frames at
 * real-time pace (--fast: as fast as the server's allowance lets it), live TRANSCRIPT lines are printed as
 * they arrive, then EOF; the script polls the status and prints the final transcript and the note sections.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import { decodeWav, toPcm16Mono16k } from '../server/engines/speech/audio';
import { AUTH_PROTOCOL, BYTES_PER_MS, EOF_FRAME } from '../lib/contracts/stream-protocol';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'base-url': { type: 'string', default: process.env.BASE_URL ?? 'http://127.0.0.1:3000' },
    token: { type: 'string' },
    session: { type: 'string' },
    'partner-id': { type: 'string' },
    'partner-token': { type: 'string' },
    'provider-id': { type: 'string' },
    fast: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const USAGE = 'usage: npm run example:stream -- <file.wav> [--base-url URL] [--fast] (--token T --session ID | --partner-id P --partner-token JWT) [--provider-id ID]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

async function call(base: string, method: string, p: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${p}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok && !(p.endsWith('/register') && res.status === 409)) fail(`${method} ${p} → ${res.status} ${text}`);
  return data;
}

const fmt = (ms: number) => `${String(Math.floor(ms / 60000)).padStart(2, '0')}:${((ms % 60000) / 1000).toFixed(1).padStart(4, '0')}`;

async function main(): Promise<void> {
  const file = positionals[0];
  if (values.help || !file) fail(USAGE);
  const base = values['base-url']!.replace(/\/+$/, '');
  const pcm = toPcm16Mono16k(decodeWav(fs.readFileSync(file)));
  const providerId = values['provider-id'];

  let token = values.token;
  let sessionId = values.session;
  if (!token) {
    const partnerId = values['partner-id'];
    const partnerToken = values['partner-token'];
    if (!partnerId || !partnerToken) fail(`${USAGE}\n\nNo --token: pass --partner-id and --partner-token (npm run admin -- demo prints both).`);
    await call(base, 'POST', '/api/v1/auth/register', {}, { partner_id: partnerId, partner_token: partnerToken, provider_name: 'Example Stream', provider_org_id: 'example-org', provider_id: providerId });
    token = (await call(base, 'POST', '/api/v1/auth/login', {}, { partner_id: partnerId, partner_token: partnerToken, provider_id: providerId })).service_token as string;
  }
  const headers: Record<string, string> = { sdp_service_token: token };
  if (providerId) headers.sdp_provider_id = providerId;
  if (!sessionId) {
    sessionId = (await call(base, 'POST', '/api/v1/ambient/session/create', headers, {})).ambient_session_id as string;
    await call(base, 'POST', `/api/v1/ambient/session/${sessionId}/context`, headers, { visit: { visit_type: 'ESTABLISHED_PATIENT' } });
  }
  console.log(`session ${sessionId}: streaming ${(pcm.length / 32000).toFixed(1)} s of audio${values.fast ? ' (fast)' : ''}`);

  const protocols = [AUTH_PROTOCOL, sessionId, token, ...(providerId ? [providerId] : [])];
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/ambient`, protocols);
  let acked = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  ws.on('message', (data) => {
    const f = JSON.parse(data.toString());
    if (f.type === 'ACK') acked = f.received_ms;
    else if (f.type === 'TRANSCRIPT' && f.is_final) console.log(`[${fmt(f.start_offset_ms)}] ${f.text}`);
    else if (f.type === 'STATUS') console.log(`status: ${f.status}`);
    else if (f.type === 'ERROR') console.error(`error ${f.code}: ${f.message}`);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from(new Date().toISOString()).toString('base64') }));
  const frame = 100 * BYTES_PER_MS;
  const started = Date.now();
  for (let o = 0, i = 0; o < pcm.length && ws.readyState === WebSocket.OPEN; o += frame, i++) {
    ws.send(JSON.stringify({ type: 'AUDIO', data: pcm.subarray(o, Math.min(pcm.length, o + frame)).toString('base64') }));
    // Real time: frame i is due at i × 100 ms. Fast: stay a second inside the server's default 30 s allowance.
    const due = values.fast ? (i + 1) * 100 - 29_000 : (i + 1) * 100;
    const wait = started + due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  ws.send(JSON.stringify(EOF_FRAME));
  const c = await closed;
  console.log(`stream closed (${c.code}${c.reason ? ` ${c.reason}` : ''}); ${(acked / 1000).toFixed(1)} s acknowledged`);

  let status = '';
  for (;;) {
    status = (await call(base, 'GET', `/api/v1/ambient/session/${sessionId}/status`, headers)).status;
    if (['completed', 'skipped', 'failed', 'aborted'].includes(status)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(`\nfinal status: ${status}`);
  if (status !== 'completed') process.exit(status === 'skipped' ? 0 : 1);
  const { final_transcript } = await call(base, 'GET', `/api/v1/ambient/session/${sessionId}/transcript`, headers);
  console.log('\n== Transcript ==');
  for (const e of final_transcript) console.log(`${(e.speaker ?? 'UNKNOWN').padEnd(9)} ${e.transcript}`);
  const content = await call(base, 'GET', `/api/v1/ambient/session/${sessionId}/content`, headers);
  console.log('\n== Note ==');
  for (const s of content.summary) console.log(`\n## ${s.title} (${s.loinc_code})\n${s.content}`);
}

main().catch((err) => fail(err instanceof Error ? err.message : String(err)));
