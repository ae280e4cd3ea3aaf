import type { AppContext } from '../context';
import type { SpeechEngine } from './speech/index';
import type { NotesEngine } from './notes/index';

// How the rest of the server reaches the engines: the services the composition root (server/services.ts)
// built, never an engine module's factory.

/**
 * The process's one speech engine (decoder threads are expensive), built on first use (server/services.ts);
 * SPEECH_ENGINE=sherpa is built at start-up instead, so a bad model directory never fails a visit.
 * Configuration errors surface to the caller: the stream then runs without a live transcript and
 * finalisation fails with TRANSCRIPTION_FAILED, rather than the server refusing audio.
 */
export function getSpeechEngine(app: Pick<AppContext, 'services'>): SpeechEngine {
  return app.services.speech.get();
}

export function getNotesEngine(app: Pick<AppContext, 'services'>): NotesEngine {
  return app.services.notes.get();
}

/** Closes the engines if they were built (shutdown, and tests that build a context of their own). */
export async function closeEngines(app: Pick<AppContext, 'services' | 'log'>): Promise<void> {
  await app.services.speech.close().catch((err: Error) => app.log.warn({ err: err.message }, 'speech engine close failed'));
}
