import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore, FsBlobStore, recordingBlobKey } from './index';
import { chunkKey, layoutChunks, parseChunkOffset, S3BlobStore } from './s3-store';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-test-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('FsBlobStore', () => {
  it('appends in order, batches concurrent appends, and reads ranges back', async () => {
    const root = tmp();
    const store = new FsBlobStore(root);
    const key = recordingBlobKey('5b0c7c3e-1111-4222-8333-444455556666', 1, 'rec');
    const parts = Array.from({ length: 50 }, (_, i) => Buffer.alloc(100 + i, i));
    const sizes = await Promise.all(parts.map((p) => store.append(key, p)));
    const all = Buffer.concat(parts);
    // Each promise resolves with a durable size that includes its own bytes.
    let expected = 0;
    parts.forEach((p, i) => {
      expected += p.length;
      expect(sizes[i]).toBeGreaterThanOrEqual(expected);
    });
    expect(await store.size(key)).toBe(all.length);
    expect((await store.read(key)).equals(all)).toBe(true);
    expect((await store.read(key, { start: 120, end: 400 })).equals(all.subarray(120, 400))).toBe(true);
    expect((await store.read(key, { start: all.length + 10 })).length).toBe(0);
    const streamed: Buffer[] = [];
    for await (const c of await store.createReadStream(key, { start: 7 })) streamed.push(c as Buffer);
    expect(Buffer.concat(streamed).equals(all.subarray(7))).toBe(true);
    // The bytes are in the file itself, not only in a cache.
    expect(fs.readFileSync(store.pathOf(key)).equals(all)).toBe(true);
    await store.close();

    const reopened = new FsBlobStore(root);
    expect(await reopened.size(key)).toBe(all.length);
    await reopened.append(key, Buffer.from([1, 2]));
    expect(await reopened.size(key)).toBe(all.length + 2);
    await reopened.delete(key);
    expect(await reopened.size(key)).toBe(0);
    expect((await reopened.read(key)).length).toBe(0);
    await reopened.close();
  });

  it('makes the appends of many blobs durable with shared flushes, or one fdatasync per blob', async () => {
    const parts = (k: number) => Array.from({ length: 5 }, (_, i) => Buffer.alloc(3200, (k + i) % 256));
    const keys = Array.from({ length: 100 }, (_, k) => recordingBlobKey('5b0c7c3e-1111-4222-8333-444455556666', k + 1, 'rec'));
    for (const sync of ['filesystem', 'file'] as const) {
      const store = new FsBlobStore(tmp(), { sync });
      // 100 streams, each appending five frames one after another, as live streams do.
      await Promise.all(keys.map(async (key, k) => {
        for (const p of parts(k)) await store.append(key, p);
      }));
      for (const [k, key] of keys.entries()) expect(fs.readFileSync(store.pathOf(key)).equals(Buffer.concat(parts(k)))).toBe(true);
      if (sync === 'filesystem') {
        // 500 appends: one flush covers every frame written before it started, so far fewer than 500.
        expect(store.barrier!.flushes).toBeGreaterThan(0);
        expect(store.barrier!.flushes).toBeLessThan(100);
      } else expect(store.barrier).toBeNull();
      await store.close();
      await store.close();
    }
  });

  it('refuses keys that could escape the root', async () => {
    const store = new FsBlobStore(tmp());
    await expect(store.append('../etc/passwd', Buffer.from('x'))).rejects.toThrow(/invalid blob key/);
    await expect(store.size('a/../../b')).rejects.toThrow(/invalid blob key/);
    await store.close();
  });
});

describe('S3 layout', () => {
  it('names chunks by zero-padded start offset so listing order is byte order', () => {
    expect(chunkKey('env/', 'sessions/s/0001-r.pcm', 3200)).toBe('env/sessions/s/0001-r.pcm/0000000000003200');
    expect(parseChunkOffset('env/', 'sessions/s/0001-r.pcm', 'env/sessions/s/0001-r.pcm/0000000000003200')).toBe(3200);
    expect(parseChunkOffset('env/', 'sessions/s/0001-r.pcm', 'env/sessions/s/0001-r.pcm/manifest')).toBeNull();
    expect(parseChunkOffset('env/', 'sessions/s/0001-r.pcm', 'env/sessions/s/0002-r.pcm/0000000000000000')).toBeNull();
  });

  it('keeps the contiguous run of chunks from offset 0 and sums its size', () => {
    const k = 'a/b.pcm';
    const objects = [
      { Key: chunkKey('', k, 300), Size: 50 },
      { Key: chunkKey('', k, 0), Size: 100 },
      { Key: chunkKey('', k, 100), Size: 200 },
      // A chunk that starts inside another one lost a race with a second writer; it is not audio.
      { Key: chunkKey('', k, 120), Size: 10 },
      { Key: `${k}/junk`, Size: 5 },
    ];
    const layout = layoutChunks('', k, objects);
    expect(layout.size).toBe(350);
    expect(layout.chunks.map((c) => c.offset)).toEqual([0, 100, 300]);
    expect(layoutChunks('', k, [{ Key: chunkKey('', k, 100), Size: 5 }]).size).toBe(0);
  });

  it('is chosen only when all four S3 variables are set', () => {
    const dataDir = tmp();
    const s3 = createBlobStore(dataDir, { S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    expect(s3).toBeInstanceOf(S3BlobStore);
    void s3.close();
    expect(() => createBlobStore(dataDir, { S3_ENDPOINT: 'http://127.0.0.1:9' })).toThrow(/S3_BUCKET/);
    const fsStore = createBlobStore(dataDir, {});
    expect(fsStore.kind).toBe('fs');
    expect((fsStore as FsBlobStore).root).toBe(path.join(dataDir, 'audio'));
    void fsStore.close();
  });
});

/**
 * Against S3_TEST_ENDPOINT when one is configured; otherwise against s3rver, a local S3-compatible server that
 * stands in for S3 (a third-party service this machine cannot reach), started here.
 */
describe('S3BlobStore against an S3-compatible server', () => {
  let target: { endpoint: string; bucket: string; accessKeyId: string; secretAccessKey: string };
  let stop = async () => {};
  beforeAll(async () => {
    if (process.env.S3_TEST_ENDPOINT && process.env.S3_TEST_BUCKET) {
      target = {
        endpoint: process.env.S3_TEST_ENDPOINT,
        bucket: process.env.S3_TEST_BUCKET,
        accessKeyId: process.env.S3_TEST_ACCESS_KEY_ID ?? '',
        secretAccessKey: process.env.S3_TEST_SECRET_ACCESS_KEY ?? '',
      };
      return;
    }
    // Not tmp(): that directory is removed after each test, and the server outlives one.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-blob-test-'));
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: 'blob-test', configs: [] }] });
    const { port } = await server.run();
    stop = async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
    target = { endpoint: `http://127.0.0.1:${port}`, bucket: 'blob-test', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  });
  afterAll(() => stop());

  it('appends, sizes and reads back', async () => {
    const store = new S3BlobStore({ ...target, forcePathStyle: true, prefix: `test-${Date.now()}` });
    const key = 'sessions/x/0001-r.pcm';
    await Promise.all([Buffer.from('abc'), Buffer.from('defg')].map((b) => store.append(key, b)));
    expect(await store.size(key)).toBe(7);
    expect((await store.read(key, { start: 2, end: 5 })).toString()).toBe('cde');
    await store.delete(key);
    expect(await store.size(key)).toBe(0);
    await store.close();
  });
});
