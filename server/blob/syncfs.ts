import fs from 'node:fs';
import koffi from 'koffi';

type SyncFs = { async: (fd: number, cb: (err: unknown, rc: number) => void) => void };
let bound: SyncFs | null | undefined;

function bind(): SyncFs | null {
  if (bound !== undefined) return bound;
  try {
    bound = process.platform === 'linux' ? (koffi.load('libc.so.6').func('int syncfs(int fd)') as unknown as SyncFs) : null;
  } catch {
    bound = null; // not glibc (musl, another OS): callers fall back to one fdatasync per file
  }
  return bound;
}

/**
 * Linux syncfs(2) on the filesystem holding `dir`: one call makes every write to any file on it durable,
 * so the appends of all live streams share one flush instead of one fdatasync each. Runs on a koffi worker
 * thread, off the event loop. Returns null where syncfs is not available.
 */
export function openFilesystemSync(dir: string): { sync: () => Promise<void>; close: () => void } | null {
  const syncfs = bind();
  if (!syncfs) return null;
  const fd = fs.openSync(dir, 'r');
  let open = true;
  return {
    sync: () =>
      new Promise<void>((resolve, reject) =>
        syncfs.async(fd, (err, rc) => (err ? reject(err as Error) : rc === 0 ? resolve() : reject(new Error(`syncfs on ${dir} failed`)))),
      ),
    close: () => {
      // Once only: a second close could close a descriptor the process has since reused.
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}
