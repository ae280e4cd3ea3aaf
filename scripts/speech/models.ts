/**
 * npm run speech:models -- list
 * npm run speech:models -- download NAME [--dir DIR] [--from URL] [--accept-unpinned]
 * npm run speech:models -- verify [DIR]
 *
 * Models for SPEECH_ENGINE=sherpa (README, "Neural speech"). DIR defaults to SPEECH_MODEL_DIR, else
 * DATA_DIR/models/speech. download fetches a catalogued archive (model-catalogue.ts) over HTTPS, checks its
 * SHA-256, unpacks it and records each file's hash in model.json; verify checks a directory (one downloaded
 * here or copied in from a machine with internet) the way the server does at start, against those hashes.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { speechConfigFromEnv } from '@/server/engines/speech/index';
import { resolveModelDir, type ModelDir } from '@/server/engines/speech/sherpa/model-dir';
import { probeModelDir } from '@/server/engines/speech/sherpa/probe';
import { CATALOGUE, findModel, type CatalogueModel } from './model-catalogue';

/** How long to wait for the host to answer at all: an unreachable one fails at once, not after minutes. */
const CONNECT_TIMEOUT_MS = 10_000;

class UsageError extends Error {}

function args(argv: string[]) {
  const flags: Record<string, string | true> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) rest.push(a);
    else if (a === '--accept-unpinned') flags[a.slice(2)] = true;
    else flags[a.slice(2)] = argv[++i] ?? '';
  }
  return { flags, rest };
}

async function sha256File(file: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(fs.createReadStream(file), h);
  return h.digest('hex');
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function list(): void {
  console.log('| name | family | size | licence | languages | published WER | SHA-256 |');
  console.log('|---|---|---|---|---|---|---|');
  for (const m of CATALOGUE) {
    // A pinned archive's bytes include fp32 copies the engine does not load; otherwise the int8 files' estimate.
    const size = m.bytes ? `archive ${mb(m.bytes)}` : `~${m.approxMb} MB int8 files`;
    const wer = m.wer.value === null ? `see ${m.wer.source}` : `${m.wer.value} % ${m.wer.set} (${m.wer.source})`;
    const family = m.streaming ? `${m.family} (streaming)` : m.family;
    console.log(`| ${m.name} | ${family} | ${size} | ${m.licence} | ${m.languages.join(', ')} | ${wer} | ${m.sha256 ?? 'not yet pinned'} |`);
  }
}

/** Fetches the archive to a temporary file, hashing as it goes; fails at once when the host cannot be reached. */
async function fetchArchive(url: string, to: string): Promise<{ sha256: string; bytes: number }> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
  let res: Response;
  try {
    res = await fetch(url, { signal: ctl.signal, redirect: 'follow' });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    const why = err.cause?.code ?? err.cause?.message ?? err.message;
    throw new Error(
      `cannot reach ${new URL(url).host} (${why}). This machine has no route to the model host: run the same download on a machine ` +
        'with internet, copy the model directory here (SPEECH_MODEL_DIR), then run npm run speech:models -- verify',
    );
  } finally {
    clearTimeout(timer);
  }
  if (!res.ok || !res.body) throw new Error(`${url} answered ${res.status}`);
  const h = createHash('sha256');
  let bytes = 0;
  const counted = Readable.fromWeb(res.body as never).on('data', (c: Buffer) => {
    h.update(c);
    bytes += c.length;
  });
  await pipeline(counted, fs.createWriteStream(to));
  return { sha256: h.digest('hex'), bytes };
}

async function download(name: string, dir: string, from: string | undefined, acceptUnpinned: boolean): Promise<void> {
  const m = findModel(name);
  if (!m) throw new UsageError(`unknown model "${name}"; npm run speech:models -- list`);
  const url = from ? `${from.replace(/\/+$/, '')}/${path.basename(m.archive)}` : m.archive;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-model-'));
  try {
    const archive = path.join(tmp, path.basename(url));
    console.log(`downloading ${m.name} (${m.bytes ? mb(m.bytes) : `~${m.approxMb} MB`}, ${m.licence}) from ${url}`);
    const got = await fetchArchive(url, archive);
    if (m.sha256 && got.sha256 !== m.sha256) throw new Error(`${path.basename(url)}: SHA-256 ${got.sha256} is not the pinned ${m.sha256}; not installed`);
    if (!m.sha256 && !acceptUnpinned) {
      throw new Error(`${m.name} has no pinned SHA-256 yet; this archive's is ${got.sha256} (${mb(got.bytes)}). Check it against the publisher's listing, pin it in scripts/speech/model-catalogue.ts, or pass --accept-unpinned`);
    }
    const target = m.streaming ? path.join(dir, 'streaming') : dir;
    fs.mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xjf', archive, '-C', target, '--strip-components=1'], { stdio: 'inherit' });
    if (!m.streaming) await writeManifest(dir, m, got.sha256);
    console.log(`installed ${m.name} in ${target} (${mb(got.bytes)}, SHA-256 ${got.sha256}, licence ${m.licence})`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  await verify(dir);
}

/** model.json beside the archive's files: the family, where they came from, and each file's hash for verify. */
async function writeManifest(dir: string, m: CatalogueModel, archiveSha256: string): Promise<void> {
  const files_sha256: Record<string, string> = {};
  for (const f of fs.readdirSync(dir)) {
    if (/\.(onnx|txt)$/.test(f)) files_sha256[f] = await sha256File(path.join(dir, f));
  }
  const manifest = { family: m.family, name: m.name, languages: m.languages, licence: m.licence, archive: m.archive, archive_sha256: archiveSha256, files_sha256 };
  fs.writeFileSync(path.join(dir, 'model.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

function modelFiles(m: ModelDir): string[] {
  const parts = [m.offline, ...(m.streaming ? [m.streaming] : [])];
  return parts.flatMap((p) => [...Object.values(p.files), p.tokens]);
}

async function verify(dir: string): Promise<void> {
  const m = resolveModelDir(dir);
  const manifestFile = path.join(dir, 'model.json');
  const recorded = fs.existsSync(manifestFile) ? ((JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { files_sha256?: Record<string, string> }).files_sha256 ?? null) : null;
  console.log(`${dir}: ${m.offline.family}${m.streaming ? ` + streaming ${m.streaming.family}` : ''}`);
  for (const f of modelFiles(m)) {
    const hash = await sha256File(f);
    const rel = path.relative(dir, f);
    const want = recorded?.[rel];
    if (want && want !== hash) throw new Error(`${f}: SHA-256 ${hash} differs from model.json's ${want}: the copy is damaged or was changed`);
    console.log(`  ${rel}  ${mb(fs.statSync(f).size)}  ${hash}${want ? '  matches model.json' : ''}`);
  }
  if (!recorded) console.log('  model.json records no file hashes: checked files, metadata and loading only');
  probeModelDir(m, 1);
  console.log(`ok: sherpa-onnx loads and runs the model (Silero VAD ${path.relative(process.cwd(), m.vad)})`);
}

async function main(argv: string[]): Promise<void> {
  const { flags, rest } = args(argv);
  const [cmd, arg] = rest;
  const defaultDir = speechConfigFromEnv(process.env).modelDir!;
  const dir = path.resolve(typeof flags.dir === 'string' ? flags.dir : defaultDir);
  if (cmd === 'list') return list();
  if (cmd === 'download' && arg) return download(arg, dir, typeof flags.from === 'string' ? flags.from : undefined, flags['accept-unpinned'] === true);
  if (cmd === 'verify') return verify(path.resolve(arg ?? dir));
  throw new UsageError('usage: npm run speech:models -- list | download NAME [--dir DIR] [--from URL] [--accept-unpinned] | verify [DIR]');
}

main(process.argv.slice(2)).catch((e: Error) => {
  console.error(`speech:models: ${e.message}`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
