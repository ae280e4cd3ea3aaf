import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyNemoCtcDir } from '@/server/engines/speech/sherpa/fixtures/tiny-nemo-ctc';
import { CATALOGUE } from './model-catalogue';

const run = promisify(execFile);
let base: string;
let archives: http.Server;
let archivesUrl: string;

/** Runs the command as an operator would; resolves with its exit code and output either way. */
async function models(...argv: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'scripts/speech/models.ts', ...argv], { env: { ...process.env, SPEECH_MODEL_DIR: path.join(base, 'default') } });
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-models-'));
  // A local stand-in for the model host, serving the generated model packed as sherpa-onnx packs its archives.
  const src = writeTinyNemoCtcDir(path.join(base, 'src', 'sherpa-onnx-nemo-ctc-en-conformer-small'), { manifest: false });
  execFileSync('tar', ['-cjf', path.join(base, 'sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2'), '-C', path.dirname(src), path.basename(src)]);
  // The same bytes under a pinned model's archive name: what a tampered mirror or a corrupt download looks like.
  fs.copyFileSync(path.join(base, 'sherpa-onnx-nemo-ctc-en-conformer-small.tar.bz2'), path.join(base, 'sherpa-onnx-whisper-tiny.en.tar.bz2'));
  archives = http.createServer((req, res) => {
    const f = path.join(base, path.basename(req.url ?? ''));
    if (!fs.existsSync(f)) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    fs.createReadStream(f).pipe(res);
  });
  await new Promise<void>((r) => archives.listen(0, '127.0.0.1', r));
  archivesUrl = `http://127.0.0.1:${(archives.address() as AddressInfo).port}`;
});
afterAll(() => {
  archives?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('npm run speech:models', () => {
  it('lists every catalogued model with family, size, licence, languages, WER source and hash state', async () => {
    const { code, out } = await models('list');
    expect(code).toBe(0);
    for (const m of CATALOGUE) expect(out).toContain(`| ${m.name} | ${m.family}`);
    expect(out).toContain('CC-BY-4.0');
    expect(out).toContain('not yet pinned');
    // A pinned archive shows its hash and archive size, not the int8 estimate.
    const tiny = CATALOGUE.find((m) => m.name === 'whisper-tiny.en')!;
    expect(tiny.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(out).toMatch(new RegExp(`\\| whisper-tiny\\.en \\| whisper \\| archive 118\\.1 MB \\|.*\\| ${tiny.sha256} \\|`));
  });

  it('fails at once with a clear message when the model host cannot be reached', async () => {
    // A loopback port nothing listens on refuses the connection: the same path as a host with no route.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const { code, out } = await models('download', 'whisper-tiny.en', '--dir', path.join(base, 'unreachable'), '--from', `http://127.0.0.1:${port}`);
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\. This machine has no route to the model host: .*speech:models -- verify`));
    expect(fs.existsSync(path.join(base, 'unreachable'))).toBe(false);
  });

  it('rejects unknown names and an archive whose hash is not pinned', async () => {
    expect((await models('download', 'whisper-huge')).out).toMatch(/unknown model "whisper-huge"/);
    const { code, out } = await models('download', 'nemo-ctc-en-conformer-small', '--dir', path.join(base, 'unpinned'), '--from', archivesUrl);
    expect(code).toBe(1);
    expect(out).toMatch(/has no pinned SHA-256 yet; this archive's is [0-9a-f]{64}/);
    expect(fs.existsSync(path.join(base, 'unpinned'))).toBe(false);
  });

  it('refuses an archive whose SHA-256 differs from the pinned one, even with --accept-unpinned', async () => {
    const pinned = CATALOGUE.find((m) => m.name === 'whisper-tiny.en')!.sha256!;
    const dir = path.join(base, 'tampered');
    const { code, out } = await models('download', 'whisper-tiny.en', '--dir', dir, '--from', archivesUrl, '--accept-unpinned');
    expect(code).toBe(1);
    expect(out).toMatch(new RegExp(`sherpa-onnx-whisper-tiny\\.en\\.tar\\.bz2: SHA-256 [0-9a-f]{64} is not the pinned ${pinned}; not installed`));
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('downloads, unpacks, records file hashes, and verifies a copied directory against them', async () => {
    const dir = path.join(base, 'installed');
    const got = await models('download', 'nemo-ctc-en-conformer-small', '--dir', dir, '--from', archivesUrl, '--accept-unpinned');
    expect(got.out).toContain('installed nemo-ctc-en-conformer-small');
    expect(got.code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
    expect(manifest).toMatchObject({ family: 'nemo_ctc', licence: 'CC-BY-4.0', languages: ['en'] });
    expect(Object.keys(manifest.files_sha256).sort()).toEqual(['model.onnx', 'tokens.txt']);

    const copy = path.join(base, 'copied');
    fs.cpSync(dir, copy, { recursive: true });
    const ok = await models('verify', copy);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/model\.onnx .* matches model\.json/);
    expect(ok.out).toContain('ok: sherpa-onnx loads and runs the model');

    fs.appendFileSync(path.join(copy, 'tokens.txt'), '\n');
    const bad = await models('verify', copy);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`${path.join(copy, 'tokens.txt')}: SHA-256`);
  });

  it('verify names the file when the directory is broken', async () => {
    const d = writeTinyNemoCtcDir(path.join(base, 'broken'));
    fs.rmSync(path.join(d, 'tokens.txt'));
    const { code, out } = await models('verify', d);
    expect(code).toBe(1);
    expect(out).toContain(`missing tokens file ${path.join(d, 'tokens.txt')}`);
  });
});
