import type { CodeIndex } from '@/server/codesets/index';
import type { NotesEngine } from './types';
import { EmbeddedNotesEngine } from './embedded/index';

export type { NotesEngine } from './types';
export { EmbeddedNotesEngine, noteToText } from './embedded/index';

export interface NotesEngineConfig {
  engine?: 'embedded' | 'openai';
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  codes?: CodeIndex;
}

/** NOTES_ENGINE = embedded (default) | openai; the OpenAI-compatible engine reads NOTES_BASE_URL, NOTES_API_KEY, NOTES_MODEL. */
export function createNotesEngine(config?: NotesEngineConfig): NotesEngine {
  const env = process.env;
  const kind = config?.engine ?? ((env.NOTES_ENGINE ?? 'embedded').toLowerCase() as NotesEngineConfig['engine']);
  const embedded = new EmbeddedNotesEngine({ codes: config?.codes });
  if (kind === 'embedded') return embedded;
  throw new Error(`NOTES_ENGINE=${kind} is not supported (embedded | openai)`);
}
