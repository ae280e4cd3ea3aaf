import { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GroupCommit } from './group-commit';
import { checkKey, clampRange, type BlobStore, type ByteRange } from './types';

export interface S3Options {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region?: string;
  /** Prefix inside the bucket, so one bucket can serve several deployments. */
  prefix?: string;
  /** Path-style addressing (MinIO, Ceph, most self-hosted stores) unless told otherwise. */
  forcePathStyle?: boolean;
}

/**
 * Layout: an object cannot be appended to, and a multipart upload is unreadable until completed and needs
 * 5 MiB parts, so each durable append is its own object named by the byte offset where it starts:
 * `<prefix><key>/<offset as 16 digits>`. Zero padding makes the listing order the byte order, a chunk is
 * either fully there or absent (a PUT is atomic), and the size is the end of the last chunk.
 */
export const CHUNK_DIGITS = 16;

export function chunkKey(prefix: string, key: string, offset: number): string {
  return `${prefix}${checkKey(key)}/${String(offset).padStart(CHUNK_DIGITS, '0')}`;
}

export function chunkPrefix(prefix: string, key: string): string {
  return `${prefix}${checkKey(key)}/`;
}

/** The offset a chunk object starts at, or null for an object that is not a chunk of this blob. */
export function parseChunkOffset(prefix: string, key: string, objectKey: string): number | null {
  const p = chunkPrefix(prefix, key);
  if (!objectKey.startsWith(p)) return null;
  const rest = objectKey.slice(p.length);
  return /^\d{16}$/.test(rest) ? Number(rest) : null;
}

interface Chunk {
  offset: number;
  size: number;
  objectKey: string;
}

export interface ChunkLayout {
  chunks: Chunk[];
  size: number;
}

/**
 * Orders listed chunks and keeps the contiguous run from offset 0. A chunk that does not start where the
 * previous one ended (a write that lost a race with another writer) is ignored rather than read as audio.
 */
export function layoutChunks(prefix: string, key: string, objects: Array<{ Key?: string; Size?: number }>): ChunkLayout {
  const found: Chunk[] = [];
  for (const o of objects) {
    if (!o.Key) continue;
    const offset = parseChunkOffset(prefix, key, o.Key);
    if (offset !== null) found.push({ offset, size: o.Size ?? 0, objectKey: o.Key });
  }
  found.sort((a, b) => a.offset - b.offset);
  const chunks: Chunk[] = [];
  let size = 0;
  for (const c of found) {
    if (c.offset !== size) continue;
    chunks.push(c);
    size += c.size;
  }
  return { chunks, size };
}

interface Writer {
  size: number;
  commit: GroupCommit;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly writers = new Map<string, Promise<Writer>>();

  constructor(opts: S3Options) {
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region ?? 'us-east-1',
      forcePathStyle: opts.forcePathStyle ?? true,
      credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey },
    });
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ? opts.prefix.replace(/\/*$/, '/') : '';
  }

  private async list(key: string): Promise<ChunkLayout> {
    const objects: Array<{ Key?: string; Size?: number }> = [];
    let token: string | undefined;
    do {
      const res = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: chunkPrefix(this.prefix, key), ContinuationToken: token }),
      );
      objects.push(...(res.Contents ?? []));
      token = res.IsTruncated ? res.NextContinuationToken : undefined;
    } while (token);
    return layoutChunks(this.prefix, key, objects);
  }

  private writer(key: string): Promise<Writer> {
    let p = this.writers.get(key);
    if (!p) {
      p = (async () => {
        const w: Writer = { size: (await this.list(key)).size, commit: null as unknown as GroupCommit };
        w.commit = new GroupCommit(async (buf) => {
          await this.client.send(
            new PutObjectCommand({ Bucket: this.bucket, Key: chunkKey(this.prefix, key, w.size), Body: buf, ContentLength: buf.length, ContentType: 'application/octet-stream' }),
          );
          w.size += buf.length;
          return w.size;
        });
        return w;
      })();
      this.writers.set(key, p);
      p.catch(() => this.writers.delete(key));
    }
    return p;
  }

  async append(key: string, buf: Buffer): Promise<number> {
    return (await this.writer(key)).commit.append(buf);
  }

  async size(key: string): Promise<number> {
    const p = this.writers.get(key);
    if (p) {
      const w = await p;
      await w.commit.drain();
      return w.size;
    }
    return (await this.list(key)).size;
  }

  async read(key: string, range?: ByteRange): Promise<Buffer> {
    const parts: Buffer[] = [];
    for await (const part of await this.createReadStream(key, range)) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }

  async createReadStream(key: string, range?: ByteRange): Promise<Readable> {
    const p = this.writers.get(key);
    if (p) await (await p).commit.drain();
    const layout = await this.list(key);
    const { start, end } = clampRange(layout.size, range);
    const wanted = layout.chunks.filter((c) => c.offset < end && c.offset + c.size > start);
    const client = this.client;
    const bucket = this.bucket;
    async function* chunks() {
      for (const c of wanted) {
        const from = Math.max(start, c.offset) - c.offset;
        const to = Math.min(end, c.offset + c.size) - c.offset;
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: c.objectKey, Range: `bytes=${from}-${to - 1}` }));
        yield Buffer.from(await res.Body!.transformToByteArray());
      }
    }
    return Readable.from(chunks());
  }

  async delete(key: string): Promise<void> {
    const p = this.writers.get(key);
    this.writers.delete(key);
    if (p) await (await p.catch(() => null))?.commit.drain();
    const { chunks } = await this.list(key);
    for (let i = 0; i < chunks.length; i += 1000) {
      await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: chunks.slice(i, i + 1000).map((c) => ({ Key: c.objectKey })) } }),
      );
    }
  }

  async close(): Promise<void> {
    for (const p of this.writers.values()) await (await p.catch(() => null))?.commit.drain();
    this.writers.clear();
    this.client.destroy();
  }
}
