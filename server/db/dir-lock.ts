import fs from 'node:fs';
import path from 'node:path';

export interface DirLock {
  release(): void;
}

export class DirLockedError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(
      `the data directory is in use by process ${pid} (${lockPath}); PGlite allows one process per directory. ` +
        'Stop that process, use another DATA_DIR, or set DATABASE_URL for multi-process deployments.',
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** PGlite does not lock its directory itself, and two processes on one directory corrupt it. */
export function acquireDirLock(dir: string, name: string): DirLock {
  const lockPath = path.join(dir, `${name}.lock`);
  for (let i = 0; i < 2; i++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return { release };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw new DirLockedError(lockPath, pid);
      // A lock left by a process that died (kill -9) is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock ${lockPath}`);
}

export function readLockOwner(dir: string, name: string): number | null {
  try {
    const pid = Number(fs.readFileSync(path.join(dir, `${name}.lock`), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}
