/**
 * Audio the server has not ACKed yet, kept in IndexedDB so that a reload or a tab crash loses none of it.
 * Keyed by session and capture (one page's recording timeline): `captures` holds where the server's ACKs
 * had reached, `chunks` the unACKed PCM frames. A reopened visit restores the oldest capture with audio left
 * and resends it from the last ACK (FrameBuffer.restore). Bounded by UNSENT_STORE_LIMIT_MS per capture.
 *
 * Every write is queued in order and never throws into the recorder: a device that cannot store (private
 * mode, quota) still records and sends; `failed` tells the page the audio would not survive a reload.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { SAMPLE_RATE_HZ } from '../contracts/stream-protocol';
import type { Chunk, KeptAudio, PartReason } from './frame-buffer';
import { UNSENT_STORE_LIMIT_MS } from './recorder-policy';

export interface CaptureMeta {
  /** `${sessionId}/${captureId}` */
  key: string;
  sessionId: string;
  captureId: string;
  createdAt: number;
  ackedSamples: number;
  totalSamples: number;
  sessionBaseMs: number | null;
  /** The clinician pressed "End visit": once the audio is sent, EOF follows, even after a reload. */
  ending: boolean;
  /**
   * Where capture started again after a stop (FrameBuffer's part starts): kept so that a second reload still
   * sends the audio on each side of such a point as a recording of its own. Absent in captures kept before.
   */
  partStarts?: number[];
  /** Why capture started again at each part start (FrameBuffer's `partReasons`), sent again after a reload. */
  partReasons?: PartReason[];
}

interface StoredChunk {
  capture: string;
  start: number;
  end: number;
  at: number;
  pcm: ArrayBuffer;
}

interface Schema extends DBSchema {
  captures: { key: string; value: CaptureMeta; indexes: { bySession: string } };
  chunks: { key: [string, number]; value: StoredChunk };
}

const DB_NAME = 'ambient-recorder';

let opening: Promise<IDBPDatabase<Schema>> | null = null;
function db(): Promise<IDBPDatabase<Schema>> {
  opening ??= openDB<Schema>(DB_NAME, 1, {
    upgrade(d) {
      d.createObjectStore('captures', { keyPath: 'key' }).createIndex('bySession', 'sessionId');
      d.createObjectStore('chunks', { keyPath: ['capture', 'start'] });
    },
  }).catch((err: unknown) => {
    opening = null;
    throw err;
  });
  return opening;
}

const chunkRange = (capture: string, upTo: number) => IDBKeyRange.bound([capture, 0], [capture, upTo]);

export interface KeptCapture {
  meta: CaptureMeta;
  kept: KeptAudio;
}

/** The oldest capture of this session that still holds unACKed audio, or null. */
export async function findKept(sessionId: string): Promise<KeptCapture | null> {
  const d = await db();
  const metas = (await d.getAllFromIndex('captures', 'bySession', sessionId)).sort((a, b) => a.createdAt - b.createdAt);
  for (const meta of metas) {
    const rows = await d.getAll('chunks', chunkRange(meta.key, Number.MAX_SAFE_INTEGER));
    const chunks: Chunk[] = rows.filter((r) => r.end > meta.ackedSamples).map((r) => ({ start: r.start, at: r.at, samples: new Int16Array(r.pcm) }));
    if (chunks.length > 0 || meta.ending) return { meta, kept: { ackedSamples: meta.ackedSamples, sessionBaseMs: meta.sessionBaseMs, chunks, partStarts: meta.partStarts, partReasons: meta.partReasons } };
    await forget(meta.key);
  }
  return null;
}

/** Audio of this session kept on the device and not ACKed (ms), over all its captures. */
export async function keptMs(sessionId: string): Promise<number> {
  const found = await findKept(sessionId);
  if (!found) return 0;
  return found.kept.chunks.reduce((n, c) => n + c.samples.length, 0) / (SAMPLE_RATE_HZ / 1000);
}

async function forget(key: string): Promise<void> {
  const d = await db();
  const tx = d.transaction(['captures', 'chunks'], 'readwrite');
  await Promise.all([tx.objectStore('chunks').delete(chunkRange(key, Number.MAX_SAFE_INTEGER)), tx.objectStore('captures').delete(key), tx.done]);
}

/** Deletes everything kept for this session (the clinician confirmed "Discard", or cancelled the visit). */
export async function discardKept(sessionId: string): Promise<void> {
  const d = await db();
  for (const key of await d.getAllKeysFromIndex('captures', 'bySession', sessionId)) await forget(key);
}

export interface Position {
  ackedSamples: number;
  totalSamples: number;
  sessionBaseMs: number | null;
  partStarts?: number[];
  partReasons?: PartReason[];
}

/** The writer of one capture: appends frames, records ACK progress (dropping ACKed frames), clears at the end. */
export class CaptureWriter {
  readonly key: string;
  private queue: Promise<void> = Promise.resolve();
  private meta: CaptureMeta;
  private metaWritten = false;
  private progressPending = false;
  private readonly limitSamples: number;
  /** End of the newest chunk skipped for the limit; nothing more is kept until the server has ACKed past it. */
  private skippedUntil = 0;
  /** Whether the last append was skipped for the limit (the page says so). */
  overLimit = false;
  /** IndexedDB refused a write: audio is still sent, but would not survive a reload. */
  failed = false;

  constructor(sessionId: string, captureId: string, from?: CaptureMeta, opts: { limitMs?: number; sampleRate?: number } = {}) {
    this.key = `${sessionId}/${captureId}`;
    this.limitSamples = ((opts.limitMs ?? UNSENT_STORE_LIMIT_MS) * (opts.sampleRate ?? SAMPLE_RATE_HZ)) / 1000;
    this.meta = from ? { ...from } : { key: this.key, sessionId, captureId, createdAt: Date.now(), ackedSamples: 0, totalSamples: 0, sessionBaseMs: null, ending: false };
    this.metaWritten = !!from;
  }

  private run(op: (d: IDBPDatabase<Schema>) => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      try {
        await op(await db());
      } catch {
        this.failed = true;
      }
    });
    return this.queue;
  }

  /** Keeps a captured chunk until it is ACKed, unless the kept audio would exceed the limit. */
  append(c: Chunk): void {
    const end = c.start + c.samples.length;
    this.meta.totalSamples = Math.max(this.meta.totalSamples, end);
    if (this.skippedUntil > this.meta.ackedSamples || end - this.meta.ackedSamples > this.limitSamples) {
      this.skippedUntil = end;
      this.overLimit = true;
      return;
    }
    this.overLimit = false;
    // A copy: the recorder may hand out subarrays of buffers that are reused.
    const pcm = c.samples.slice().buffer;
    const writeMeta = !this.metaWritten;
    this.metaWritten = true;
    void this.run(async (d) => {
      const tx = d.transaction(['captures', 'chunks'], 'readwrite');
      const ops: Array<Promise<unknown>> = [tx.objectStore('chunks').put({ capture: this.key, start: c.start, end, at: c.at, pcm })];
      if (writeMeta) ops.push(tx.objectStore('captures').put({ ...this.meta }));
      await Promise.all([...ops, tx.done]);
    });
  }

  /** The server's ACKs reached this point: kept, and the frames before it dropped (coalesced writes). */
  progress(p: Position): Promise<void> {
    this.meta = { ...this.meta, ...p };
    if (this.progressPending || !this.metaWritten) return this.queue;
    this.progressPending = true;
    return this.run(async (d) => {
      this.progressPending = false;
      const meta = { ...this.meta };
      const tx = d.transaction(['captures', 'chunks'], 'readwrite');
      const chunks = tx.objectStore('chunks');
      let cursor = await chunks.openCursor(chunkRange(this.key, meta.ackedSamples));
      while (cursor) {
        if (cursor.value.end <= meta.ackedSamples) await cursor.delete();
        cursor = await cursor.continue();
      }
      await Promise.all([tx.objectStore('captures').put(meta), tx.done]);
    });
  }

  /** "End visit" was pressed: a reload must finish the visit rather than wait for more audio. */
  setEnding(): Promise<void> {
    this.meta.ending = true;
    this.metaWritten = true;
    return this.run(async (d) => {
      await d.put('captures', { ...this.meta });
    });
  }

  /** Everything is on the server (or the visit was cancelled): nothing of this capture is kept. */
  clear(): Promise<void> {
    this.metaWritten = false;
    return this.run(() => forget(this.key));
  }

  /** Resolves once every queued write has run (tests; a clean shutdown). */
  flushed(): Promise<void> {
    return this.queue;
  }
}
