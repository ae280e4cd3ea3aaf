import koffi from 'koffi';

let trim: ((pad: number) => number) | null | undefined;

/**
 * Hands freed heap pages back to the operating system. A decoder is ~18 MB of small allocations in this
 * thread's malloc arena; glibc keeps them after ps_free, so without this a burst of streams left the
 * process at its peak size for good (issue #12: 6.25 GB after 300 streams ended). A no-op where the C
 * library has no malloc_trim (musl).
 */
export function returnFreedMemory(): void {
  if (trim === undefined) {
    try {
      trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    } catch {
      trim = null;
    }
  }
  trim?.(0);
}
