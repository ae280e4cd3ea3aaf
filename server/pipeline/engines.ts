import type { AppContext } from '../context';
import { createSpeechEngine, type SpeechEngine } from '../engines/speech/index';
import { createNotesEngine, type NotesEngine } from '../engines/notes/index';

const SPEECH = 'speech.engine';
const NOTES = 'notes.engine';

/**
 * The process's one speech engine (decoder threads are expensive), created on first use. Configuration
 * errors surface to the caller: the stream then runs without a live transcript and finalisation fails
 * with TRANSCRIPTION_FAILED, rather than the server refusing audio.
 */
export function getSpeechEngine(app: Pick<AppContext, 'services'>): SpeechEngine {
  let engine = app.services.get(SPEECH) as SpeechEngine | undefined;
  if (!engine) {
    engine = createSpeechEngine();
    app.services.set(SPEECH, engine);
  }
  return engine;
}

export function getNotesEngine(app: Pick<AppContext, 'services'>): NotesEngine {
  let engine = app.services.get(NOTES) as NotesEngine | undefined;
  if (!engine) {
    engine = createNotesEngine();
    app.services.set(NOTES, engine);
  }
  return engine;
}

export async function closeEngines(app: Pick<AppContext, 'services' | 'log'>): Promise<void> {
  const speech = app.services.get(SPEECH) as SpeechEngine | undefined;
  app.services.delete(SPEECH);
  app.services.delete(NOTES);
  await speech?.close().catch((err: Error) => app.log.warn({ err: err.message }, 'speech engine close failed'));
}
