import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { returnFreedMemory } from '../pocketsphinx/heap.js';

/**
 * sherpa-onnx-node has no free(): a native object goes only when V8 collects its handle, and V8 cannot see
 * the native memory behind it (a Silero detector is ~12 MB: its ONNX Runtime session and sample buffer). An
 * idle server never collects, so the detectors of 30 ended streams stayed resident (the memory test's server
 * at baseline + 400 MB after five minutes). Code that drops a native object asks for one collection soon
 * after; a burst of drops shares it, and malloc_trim then hands the freed pages back to the system.
 */
const COLLECT_AFTER_MS = 1000;

let collect: (() => void) | null | undefined;
let timer: NodeJS.Timeout | null = null;

function collector(): (() => void) | null {
  if (collect === undefined) {
    try {
      // What --expose-gc gives, without asking every way of starting the server to pass the flag.
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  return collect;
}

export function releaseNativeMemory(): void {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    collector()?.();
    // Node runs the addon's finalizers after the collection, from the event loop; trim once they have run.
    setTimeout(returnFreedMemory, 100).unref();
  }, COLLECT_AFTER_MS);
  timer.unref();
}
