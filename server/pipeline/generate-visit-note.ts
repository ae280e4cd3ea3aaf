import type { AppContext } from '../context';
import type { ambientSessions } from '../db/schema';
import { applyNoteStyle } from '../domain/note-style/apply-note-style';
import type { NoteResult, TranscriptLine } from '../engines/notes/types';
import { timeStage } from '../observability/metrics';
import { buildNoteRequest, type VisitNoteRequest } from './build-note-request';
import { getNotesEngine } from '../engines/index';

/**
 * The visit's note from its transcript, written in its style (issue 31), and the name of the engine that
 * wrote it (a fallback engine names itself, so the export's provenance says so). The style is applied after
 * the engine and its faithfulness guard, so template wording is never judged as a claim about the visit.
 */
export async function generateVisitNote(app: AppContext, session: typeof ambientSessions.$inferSelect, lines: TranscriptLine[]): Promise<{ note: NoteResult; engineName: string }> {
  const built = await buildNoteRequest(app, session, lines);
  return timeStage(app, 'notes', () => writeVisitNote(app, built));
}

/** The note from a request already built (finalisation builds it in a stage of its own). */
export async function writeVisitNote(app: AppContext, { request, style, previsitNote }: VisitNoteRequest): Promise<{ note: NoteResult; engineName: string }> {
  const engine = getNotesEngine(app);
  const raw = await engine.generate(request);
  // Without a style the pre-visit note still leads the history, in the engine's own sections.
  const shape = style ?? (previsitNote ? { id: '', name: '', description: '', sections: raw.summary.map((s) => ({ loinc: s.loinc_code, heading: s.title })) } : null);
  const note = shape ? applyNoteStyle(raw, shape, previsitNote) : raw;
  const engineName = note.fallback ? `${note.fallback.engine} (fallback from ${note.fallback.from})` : engine.name;
  return { note, engineName };
}
