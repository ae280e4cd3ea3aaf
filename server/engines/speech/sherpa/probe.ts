import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelDir } from './model-dir.js';
import { offlineRecognizerConfig, onlineRecognizerConfig, vadConfig } from './recognizer-config.js';
import { SAMPLE_RATE_HZ } from '@/lib/contracts/stream-protocol';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe-child.cjs');

const label = (family: string, files: Record<string, string>, tokens?: string) =>
  `${family} model (${[...Object.values(files), ...(tokens ? [tokens] : [])].join(', ')})`;

/**
 * Loads every model of the directory in a child process and decodes a second of audio with it. The native
 * runtime ends its process on a model it cannot use; a child's end becomes an error here that names the
 * model and its files, at start-up, instead of a server that dies at its first visit.
 */
export function probeModelDir(m: ModelDir, numThreads: number, timeoutMs = 120_000): void {
  const input = {
    sampleRate: SAMPLE_RATE_HZ,
    offline: { label: label(m.offline.family, m.offline.files, m.offline.tokens), config: offlineRecognizerConfig(m.offline, numThreads) },
    online: m.streaming && { label: label(m.streaming.family, m.streaming.files, m.streaming.tokens), config: onlineRecognizerConfig(m.streaming, numThreads) },
    vad: { label: `Silero VAD (${m.vad})`, config: vadConfig(m.vad) },
  };
  const r = spawnSync(process.execPath, [CHILD, JSON.stringify(input)], { encoding: 'utf8', timeout: timeoutMs });
  if (r.status === 0 && r.stdout.includes('ok')) return;
  const lines = `${r.stderr ?? ''}`.split('\n').filter((l) => l.trim() !== '');
  const loading = lines.filter((l) => l.startsWith('probe: loading ')).pop()?.slice('probe: loading '.length) ?? label(m.offline.family, m.offline.files);
  const why = lines.filter((l) => !l.startsWith('probe: ')).slice(-6).join(' | ') || (r.error ? r.error.message : `exit ${r.status ?? r.signal}`);
  throw new Error(`sherpa-onnx could not use the ${loading}: ${why}`);
}
