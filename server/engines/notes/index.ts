import type { CodeIndex } from '@/server/codesets/index';
import { runningCodeIndex } from '@/server/codesets/running';
import type { NotesEngine } from './types';
import { EmbeddedNotesEngine } from './embedded/index';
import { OpenAINotesEngine } from './openai';

export type { NotesEngine } from './types';
export { EmbeddedNotesEngine, noteToText } from './embedded/index';
export { OpenAINotesEngine } from './openai';

export interface NotesEngineConfig {
  engine?: 'embedded' | 'openai';
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  codes?: CodeIndex;
}

/**
 * NOTES_ENGINE = embedded (default) | openai; the OpenAI-compatible engine reads NOTES_BASE_URL, NOTES_API_KEY, NOTES_MODEL.
 * Codes: the index passed in, else the one the server loaded at start (imported tables first), else
 * the code-set files or the built-in set, so scripts and benches work without an application context.
 */
export function createNotesEngine(config?: NotesEngineConfig): NotesEngine {
  const env = process.env;
  const kind = config?.engine ?? ((env.NOTES_ENGINE ?? 'embedded').toLowerCase() as NotesEngineConfig['engine']);
  const codes = config?.codes ?? runningCodeIndex();
  const embedded = new EmbeddedNotesEngine({ codes });
  if (kind === 'embedded') return embedded;
  if (kind === 'openai') {
    const baseUrl = config?.baseUrl ?? env.NOTES_BASE_URL;
    const model = config?.model ?? env.NOTES_MODEL;
    if (!baseUrl || !model) throw new Error('NOTES_ENGINE=openai needs NOTES_BASE_URL and NOTES_MODEL');
    return new OpenAINotesEngine({ baseUrl, model, apiKey: config?.apiKey ?? env.NOTES_API_KEY, timeoutMs: config?.timeoutMs, codes, fallback: embedded });
  }
  throw new Error(`NOTES_ENGINE=${kind} is not supported (embedded | openai)`);
}
