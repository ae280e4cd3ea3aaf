import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DecoderBias, DecoderModel } from './ffi.js';
import type { FromWorker, ToWorker } from './worker.js';
import { stageCpuBuffer } from '../stage-cpu.js';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type Listener = (m: FromWorker) => void;

interface PoolWorker {
  worker: Worker;
  streams: number;
  ready: Promise<void>;
}

const require = createRequire(import.meta.url);

function tsxEsmApi(): string {
  try {
    // The ESM entry is wanted; require.resolve would give the CommonJS one.
    return import.meta.resolve('tsx/esm/api');
  } catch {
    const pkg = require.resolve('tsx/package.json');
    const exp = (require('tsx/package.json') as { exports: Record<string, { import: { default: string } }> }).exports;
    return pathToFileURL(path.join(path.dirname(pkg), exp['./esm/api']!.import.default)).href;
  }
}

/**
 * The worker is TypeScript; a worker thread does not inherit tsx's loader from every host (vitest, plain
 * node), so the worker registers it itself before importing the module.
 */
/** Slots of the shared cancellation table (see DecoderPool.cancelled): more than streams open at once. */
export const CANCEL_SLOTS = 1 << 16;

function spawn(model: DecoderModel, cancelled: Int32Array): Worker {
  const workerUrl = new URL('./worker.ts', import.meta.url).href;
  const tsxApi = tsxEsmApi();
  const src = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(workerUrl)}); })`;
  return new Worker(src, { eval: true, workerData: { model, stageCpu: stageCpuBuffer(), cancelled: cancelled.buffer } });
}

/** A fixed set of decoder threads; each new stream goes to the thread with the fewest streams. */
export class DecoderPool {
  private workers: PoolWorker[] = [];
  private listeners = new Map<number, Listener>();
  private nextId = 1;
  private closed = false;
  /** How each thread ended: 0 when it ended itself at close(), 1 when it had to be terminated. */
  readonly exitCodes: number[] = [];
  /**
   * A released stream's id in slot id % CANCEL_SLOTS, read by its thread before each message: audio already
   * queued for a stream closed early (a live pass cut off at EOF, whose result is discarded) is dropped instead
   * of decoded while the final pass decodes the same audio beside it.
   */
  private readonly cancelled = new Int32Array(new SharedArrayBuffer(4 * CANCEL_SLOTS));

  constructor(
    private readonly model: DecoderModel,
    readonly size: number = os.availableParallelism(),
  ) {
    if (size < 1) throw new Error('speech pool size must be at least 1');
  }

  private startWorker(): PoolWorker {
    const worker = spawn(this.model, this.cancelled);
    let resolveReady!: () => void;
    let rejectReady!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      resolveReady = res;
      rejectReady = rej;
    });
    ready.catch(() => {});
    const pw: PoolWorker = { worker, streams: 0, ready };
    worker.on('message', (m: FromWorker) => {
      if (m.t === 'ready') return resolveReady();
      this.listeners.get(m.id)?.(m);
    });
    worker.on('error', (e) => {
      rejectReady(e);
      for (const l of this.listeners.values()) l({ t: 'error', id: 0, message: `speech worker failed: ${e.message}` });
    });
    worker.on('exit', (code) => this.exitCodes.push(code));
    worker.unref();
    this.workers.push(pw);
    return pw;
  }

  /** Starts all threads and loads their models now rather than on the first stream. */
  async warm(): Promise<void> {
    while (this.workers.length < this.size) this.startWorker();
    // Idle threads are unref'd; while the caller waits for them they must keep the process alive.
    for (const w of this.workers) w.worker.ref();
    try {
      await Promise.all(this.workers.map((w) => w.ready));
    } finally {
      for (const w of this.workers) if (w.streams === 0) w.worker.unref();
    }
  }

  /** `final`: a final pass, which needs no partial hypotheses; `partials`: see SpeechStreamOptions. */
  open(listener: Listener, bias?: DecoderBias, final = false, partials: 'paced' | 'every' = 'paced'): { send: (m: DistributiveOmit<ToWorker, 'id'>, transfer?: ArrayBuffer[]) => void; release: () => void; ready: Promise<void> } {
    if (this.closed) throw new Error('speech engine is closed');
    let pw: PoolWorker;
    if (this.workers.length < this.size && this.workers.every((w) => w.streams > 0)) pw = this.startWorker();
    else pw = this.workers.reduce((a, b) => (b.streams < a.streams ? b : a));
    // Idle threads must not keep the process alive, busy ones must (an awaited end() is not enough).
    if (pw.streams++ === 0) pw.worker.ref();
    const id = this.nextId++;
    this.listeners.set(id, listener);
    pw.worker.postMessage({ t: 'open', id, ...(bias ? { bias } : {}), ...(final ? { final } : {}), ...(partials === 'every' ? { partials } : {}) } satisfies ToWorker);
    let released = false;
    return {
      ready: pw.ready,
      send: (m, transfer) => pw.worker.postMessage({ ...m, id } as ToWorker, transfer ?? []),
      release: () => {
        if (released) return;
        released = true;
        Atomics.store(this.cancelled, id % CANCEL_SLOTS, id);
        if (--pw.streams === 0) pw.worker.unref();
        pw.worker.postMessage({ t: 'close', id } satisfies ToWorker);
        this.listeners.delete(id);
      },
    };
  }

  get threads(): number {
    return this.workers.length;
  }

  /** Streams holding a decoder right now. */
  get openStreams(): number {
    return this.workers.reduce((n, w) => n + w.streams, 0);
  }

  /**
   * Each thread drops the audio still queued (every stream cancelled), frees its decoders and ends itself; one
   * that has not ended in a few seconds (a library call that does not return) is terminated.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const id of this.listeners.keys()) Atomics.store(this.cancelled, id % CANCEL_SLOTS, id);
    await Promise.all(
      this.workers.map(async (w) => {
        const ended = new Promise<void>((resolve) => w.worker.once('exit', () => resolve()));
        w.worker.postMessage({ t: 'shutdown', id: 0 } satisfies ToWorker);
        let timer: NodeJS.Timeout | undefined;
        const late = await Promise.race([ended.then(() => false), new Promise<boolean>((r) => (timer = setTimeout(r, 5000, true)))]);
        clearTimeout(timer);
        if (late) await w.worker.terminate();
      }),
    );
    this.workers = [];
  }
}

export const workerPath = fileURLToPath(new URL('./worker.ts', import.meta.url));
