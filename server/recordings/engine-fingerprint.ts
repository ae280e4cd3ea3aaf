import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EmbeddedSpeechEngine, readInterpolation } from '../engines/speech/embedded';
import type { SpeechEngine } from '../engines/speech/types';

const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib', '/usr/local/lib'];
const memo = new WeakMap<SpeechEngine, Promise<string | null>>();

/** Content, not path or time: a web process and a worker on other machines with the same files agree. */
async function contentHash(file: string): Promise<string> {
  const st = await fs.promises.stat(file).catch(() => null);
  if (!st) return 'missing';
  if (st.isDirectory()) {
    const names = (await fs.promises.readdir(file)).sort();
    const parts = await Promise.all(names.map(async (n) => `${n}=${await contentHash(path.join(file, n))}`));
    return crypto.createHash('sha256').update(parts.join('\n')).digest('hex');
  }
  const h = crypto.createHash('sha256');
  // Streamed off the event loop's back: the models are tens of megabytes.
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

async function compute(engine: SpeechEngine): Promise<string | null> {
  if (!(engine instanceof EmbeddedSpeechEngine)) return null;
  const m = engine.model;
  // The engine keeps these private; read as data so that a change in either gives another fingerprint.
  const own = engine as unknown as { biasWeight?: unknown; vadOptions?: unknown };
  const libs = ['libpocketsphinx.so.3', 'libsphinxbase.so.3'].map((l) => LIB_DIRS.map((d) => path.join(d, l)).find((p) => fs.existsSync(p)) ?? l);
  const parts = {
    v: 1,
    engine: engine.name,
    hmm: await contentHash(m.hmm),
    lm: await contentHash(m.lm),
    dict: await contentHash(m.dict),
    extraDicts: await Promise.all((m.extraDicts ?? []).map(contentHash)),
    args: m.args ?? {},
    mix: m.mix ? { lms: await Promise.all(m.mix.lms.map(contentHash)), weights: m.mix.weights } : null,
    interpolation: readInterpolation(),
    biasWeight: own.biasWeight ?? null,
    vad: own.vadOptions ?? null,
    libs: await Promise.all(libs.map(contentHash)),
  };
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * What decides the embedded engine's output for given audio and bias: its model files and decoder settings,
 * interpolation and bias weights, VAD settings, and the pocketsphinx library it loads. A web process that ran
 * the live pass and a worker doing the final pass that agree on it decode alike; if they differ in any way
 * the final pass decodes again. Null for engines whose live and whole-file recognition are different
 * algorithms (the OpenAI-compatible one chunks whole files) or that recognise nothing: never reused.
 * Computed once per engine.
 */
export function engineFingerprint(engine: SpeechEngine): Promise<string | null> {
  let p = memo.get(engine);
  if (!p) {
    p = compute(engine).catch(() => null);
    memo.set(engine, p);
  }
  return p;
}
