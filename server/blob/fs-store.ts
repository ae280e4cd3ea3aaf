import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GroupCommit } from './group-commit';
import { SyncBarrier } from './sync-barrier';
import { openFilesystemSync } from './syncfs';
import { checkKey, clampRange, type BlobStore, type ByteRange } from './types';

interface OpenBlob {
  handle: fsp.FileHandle;
  size: number;
  writer: GroupCommit;
  lastUsed: number;
}

const IDLE_CLOSE_MS = 60_000;

export interface FsBlobStoreOptions {
  /**
   * How an append is made durable before it resolves. 'filesystem' (the default where Linux syncfs(2) is
   * available): appends to every blob share one flush of the filesystem, so N live streams cost one flush
   * per batch instead of N fdatasyncs. 'file': one fdatasync per blob per batch.
   */
  sync?: 'filesystem' | 'file';
}

/** Blobs as files under one directory; appends are written and made durable before they resolve. */
export class FsBlobStore implements BlobStore {
  readonly kind = 'fs' as const;
  private readonly open = new Map<string, Promise<OpenBlob>>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly filesystem: ReturnType<typeof openFilesystemSync>;
  /** Set when appends share filesystem flushes; its count is the number of flushes. */
  readonly barrier: SyncBarrier | null;

  constructor(
    readonly root: string,
    opts: FsBlobStoreOptions = {},
  ) {
    fs.mkdirSync(root, { recursive: true, mode: 0o700 });
    this.filesystem = opts.sync === 'file' ? null : openFilesystemSync(root);
    if (opts.sync === 'filesystem' && !this.filesystem) throw new Error('syncfs(2) is not available here; use sync: file');
    this.barrier = this.filesystem ? new SyncBarrier(this.filesystem.sync) : null;
    this.sweeper = setInterval(() => void this.closeIdle(), IDLE_CLOSE_MS);
    this.sweeper.unref();
  }

  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  private blob(key: string): Promise<OpenBlob> {
    let p = this.open.get(key);
    if (!p) {
      p = (async () => {
        const file = this.pathOf(key);
        const dir = path.dirname(file);
        const existed = fs.existsSync(file);
        const dirExisted = fs.existsSync(dir);
        await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
        if (!dirExisted) await syncDir(path.dirname(dir));
        const handle = await fsp.open(file, 'a', 0o600);
        // A new file's directory entry must be durable too, or a crash could lose the whole file.
        if (!existed) await syncDir(dir);
        const size = (await handle.stat()).size;
        const entry: OpenBlob = { handle, size, lastUsed: Date.now(), writer: null as unknown as GroupCommit };
        entry.writer = new GroupCommit(async (buf) => {
          let off = 0;
          while (off < buf.length) {
            const { bytesWritten } = await handle.write(buf, off, buf.length - off);
            off += bytesWritten;
          }
          // Written (to the page cache) before the barrier is asked, so the flush it waits for covers it.
          await (this.barrier ? this.barrier.sync() : handle.datasync());
          entry.size += buf.length;
          return entry.size;
        });
        return entry;
      })();
      this.open.set(key, p);
      p.catch(() => this.open.delete(key));
    }
    return p;
  }

  async append(key: string, buf: Buffer): Promise<number> {
    const b = await this.blob(key);
    b.lastUsed = Date.now();
    return b.writer.append(buf);
  }

  async size(key: string): Promise<number> {
    const p = this.open.get(key);
    if (p) {
      const b = await p;
      await b.writer.drain();
      return b.size;
    }
    try {
      return (await fsp.stat(this.pathOf(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw err;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Buffer> {
    const size = await this.size(key);
    const { start, end } = clampRange(size, range);
    if (end <= start) return Buffer.alloc(0);
    const fh = await fsp.open(this.pathOf(key), 'r');
    try {
      const out = Buffer.alloc(end - start);
      let off = 0;
      while (off < out.length) {
        const { bytesRead } = await fh.read(out, off, out.length - off, start + off);
        if (bytesRead === 0) break;
        off += bytesRead;
      }
      return off === out.length ? out : out.subarray(0, off);
    } finally {
      await fh.close();
    }
  }

  async createReadStream(key: string, range?: ByteRange): Promise<Readable> {
    const size = await this.size(key);
    const { start, end } = clampRange(size, range);
    if (end <= start) return Readable.from([]);
    return fs.createReadStream(this.pathOf(key), { start, end: end - 1 });
  }

  async delete(key: string): Promise<void> {
    const p = this.open.get(key);
    if (p) {
      this.open.delete(key);
      const b = await p.catch(() => null);
      if (b) {
        await b.writer.drain();
        await b.handle.close().catch(() => {});
      }
    }
    await fsp.rm(this.pathOf(key), { force: true });
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now();
    for (const [key, p] of this.open) {
      const b = await p.catch(() => null);
      if (!b || now - b.lastUsed < IDLE_CLOSE_MS) continue;
      this.open.delete(key);
      await b.writer.drain();
      await b.handle.close().catch(() => {});
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.open.values()];
    this.open.clear();
    for (const p of all) {
      const b = await p.catch(() => null);
      if (!b) continue;
      await b.writer.drain();
      await b.handle.close().catch(() => {});
    }
    this.filesystem?.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
