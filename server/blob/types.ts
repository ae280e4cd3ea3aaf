import type { Readable } from 'node:stream';

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, exclusive; omitted means to the end. */
  end?: number;
}

/**
 * Append-only audio storage. Keys are slash-separated paths such as `sessions/<id>/<seq>-<recording>.pcm`.
 * `append` resolves only once the bytes would survive a crash of this process or machine (fsync on disk,
 * a completed PUT on S3); that promise is what the ACK frame of /ws/ambient stands on.
 */
export interface BlobStore {
  readonly kind: 'fs' | 's3';
  /** Appends and resolves with the blob's durable size after this append. Appends to one key are ordered. */
  append(key: string, buf: Buffer): Promise<number>;
  /** Durable size in bytes; 0 for a blob that does not exist. */
  size(key: string): Promise<number>;
  /** The bytes of a range (whole blob by default); a missing blob reads as empty. */
  read(key: string, range?: ByteRange): Promise<Buffer>;
  /** The same bytes as a stream, for serving large recordings. */
  createReadStream(key: string, range?: ByteRange): Promise<Readable>;
  delete(key: string): Promise<void>;
  /** Releases open files or connections after pending appends finish. */
  close(): Promise<void>;
}

export function checkKey(key: string): string {
  // Keys come from our own ids, but a traversal must be impossible even if one day they do not.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) || key.includes('..')) {
    throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  }
  return key;
}

export function clampRange(size: number, range?: ByteRange): { start: number; end: number } {
  const start = Math.min(Math.max(0, range?.start ?? 0), size);
  const end = Math.min(Math.max(start, range?.end ?? size), size);
  return { start, end };
}
