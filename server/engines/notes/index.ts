import type { CodeIndex } from '@/server/codesets/index';
import type { NotesEngine } from './types';
import { EmbeddedNotesEngine } from './embedded/index';
import { OpenAINotesEngine } from './openai';

export type { NotesEngine } from './types';
export { EmbeddedNotesEngine, noteToText } from './embedded/index';
export { OpenAINotesEngine } from './openai';

export interface NotesEngineConfig {
  /** embedded (default) | openai, as configured (NOTES_ENGINE); checked here, when the engine is built. */
  engine?: string;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs?: number;
  codes?: CodeIndex;
}

/**
 * The server passes Config.notes and the code index it loaded at start (server/services.ts). Without
 * `codes` the engine uses the code-set files or the built-in set, so scripts and benches need no server.
 */
export function createNotesEngine(config: NotesEngineConfig = {}): NotesEngine {
  const kind = (config.engine ?? 'embedded').toLowerCase();
  const codes = config.codes;
  const embedded = new EmbeddedNotesEngine({ codes });
  if (kind === 'embedded') return embedded;
  if (kind === 'openai') {
    const { baseUrl, model } = config;
    if (!baseUrl || !model) throw new Error('NOTES_ENGINE=openai needs NOTES_BASE_URL and NOTES_MODEL');
    return new OpenAINotesEngine({ baseUrl, model, apiKey: config.apiKey, timeoutMs: config.timeoutMs, codes, fallback: embedded });
  }
  throw new Error(`NOTES_ENGINE=${kind} is not supported (embedded | openai)`);
}
