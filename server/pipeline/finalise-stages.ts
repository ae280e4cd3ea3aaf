import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { systemDb } from '../db/index';
import { ambientSessions, sessionContent, transcriptEntries } from '../db/schema';
import { transitionSession } from '../domain/sessions/transition-session';
import { buildSpeechBias } from '../domain/sessions/build-speech-bias';
import { assignSpeakerRoles } from '../engines/speech/speakers';
import type { SpeechSegment } from '../engines/speech/types';
import type { NoteResult, TranscriptLine } from '../engines/notes/types';
import { AudioUnavailableError, loadAudio, settleTimeline, type RecordingAudio } from '../recordings/load-audio';
import { joinContiguousParts } from '../recordings/join-contiguous-parts';
import { buildNoteRequest, type VisitNoteRequest } from './build-note-request';
import { FinaliseError } from './finalise-error';
import { finishSession, type FinalStatus } from './finish-session';
import { writeVisitNote } from './generate-visit-note';
import { transcribeStream, type TimedSegment } from './transcribe-stream';

const WORKER = 'finalisation worker: one session of any tenant, by id';

/** What one finalisation run has so far; each stage reads what the stages before it left. */
export interface FinaliseRun {
  app: AppContext;
  session: typeof ambientSessions.$inferSelect;
  /** Throws when another run has taken the session over: called before each write. */
  keepLease(): Promise<void>;
  recs: RecordingAudio[];
  segments: TimedSegment[];
  roles: SpeechSegment[];
  lines: TranscriptLine[];
  noteRequest?: VisitNoteRequest;
  note?: { note: NoteResult; engineName: string };
  /** Set by a stage that ends the run early (skipped, with the reason); the `complete` stage writes it. */
  outcome?: { status: FinalStatus; reason: string };
}

/** A named step of finalisation, timed as `pipeline_stage_duration_seconds{stage}`. */
export interface FinaliseStage {
  name: string;
  run(r: FinaliseRun): Promise<void>;
}

/** Ends the open streams of the session here, then reads its stored audio and places it on the timeline. */
async function load(r: FinaliseRun): Promise<void> {
  const { app, session } = r;
  if (session.status === 'ready') await transitionSession(app, session.id, 'running', { allowSame: true, reason: 'finalisation' });
  // A stream still open in this process is ended first so its last audio and live segments are settled.
  await app.services.openStreams.takeOver(session.id, 'session audio has ended');
  r.recs = await loadAudio(app, session.id).catch((err: Error) => {
    throw err instanceof AudioUnavailableError ? new FinaliseError('AUDIO_UNAVAILABLE', err.message) : err;
  });
  const totalMs = await settleTimeline(app, session.id, r.recs);
  if (totalMs < app.config.minSpeechMs) r.outcome = { status: 'skipped', reason: `audio ${totalMs} ms is below the minimum ${app.config.minSpeechMs} ms` };
}

/**
 * The final segments on the session timeline, taking what the live pass decoded (issue 18). Parts that
 * continue one another (a resend after a dropped connection) are decoded as one stream, so a word spoken
 * across the reconnect is decoded whole; parts with time between them are decoded apart.
 */
async function transcribe(r: FinaliseRun): Promise<void> {
  const { app, session } = r;
  const bias = await buildSpeechBias(app, session);
  const streams = joinContiguousParts(r.recs);
  let liveComplete = 0;
  let liveUtterances = 0;
  for (const stream of streams) {
    const t = await transcribeStream(app, stream, bias);
    if (t.liveComplete) liveComplete++;
    liveUtterances += t.liveUtterances;
    r.segments.push(...t.segments);
  }
  app.log.info({ sessionId: session.id, recordings: r.recs.length, streams: streams.length, liveComplete, liveUtterances }, 'final transcript');
  if (!r.segments.some((s) => s.text.trim())) r.outcome = { status: 'skipped', reason: 'empty transcript' };
}

/** Clinician or patient for each segment, from the whole session's audio. */
async function speakerRoles(r: FinaliseRun): Promise<void> {
  const segments = r.segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs, isFinal: true, words: [] }));
  try {
    r.roles = assignSpeakerRoles(segments, Buffer.concat(r.recs.map((rec) => rec.pcm)));
  } catch (err) {
    // Roles are an enrichment: a transcript with UNKNOWN speakers is still a valid result.
    r.app.log.warn({ sessionId: r.session.id, err: (err as Error).message }, 'speaker roles not assigned');
    r.roles = segments.map((s) => ({ ...s, speaker: 'UNKNOWN' }));
  }
  r.lines = r.segments.map((s, i) => ({
    transcriptId: crypto.randomUUID(),
    speaker: r.roles[i]?.speaker ?? 'UNKNOWN',
    text: s.text,
    startMs: Math.round(s.startMs),
    endMs: Math.round(s.endMs),
    ...(s.confidence !== undefined ? { confidence: s.confidence } : {}),
    ...(s.words ? { words: s.words } : {}),
  }));
}

/** Replaces the previous run's final transcript, if any, with this one. */
async function writeTranscript(r: FinaliseRun): Promise<void> {
  const sessionId = r.session.id;
  await r.keepLease();
  await systemDb(r.app, WORKER).transaction(async (tx) => {
    await tx.delete(transcriptEntries).where(and(eq(transcriptEntries.sessionId, sessionId), eq(transcriptEntries.source, 'final')));
    await tx.insert(transcriptEntries).values(
      r.lines.map((l, i) => {
        const seg = r.segments[i]!;
        return {
          id: l.transcriptId,
          sessionId,
          recordingId: seg.recordingId,
          position: i,
          source: 'final',
          text: l.text,
          speaker: l.speaker,
          langId: seg.lang && seg.lang !== 'en' ? seg.lang : 'en-US',
          startOffsetMs: l.startMs,
          endOffsetMs: l.endMs,
          confidence: l.confidence ?? null,
          words: l.words ?? null,
          unbiased: seg.unbiased === true,
        };
      }),
    );
  });
}

async function noteRequest(r: FinaliseRun): Promise<void> {
  r.noteRequest = await buildNoteRequest(r.app, r.session, r.lines);
}

async function generate(r: FinaliseRun): Promise<void> {
  try {
    r.note = await writeVisitNote(r.app, r.noteRequest!);
  } catch (err) {
    throw new FinaliseError('NOTE_GENERATION_FAILED', `note generation failed: ${(err as Error).message}`);
  }
}

/** Replaces the previous run's note, if any. */
async function writeContent(r: FinaliseRun): Promise<void> {
  const { note, engineName } = r.note!;
  const values = { summary: note.summary, structuredData: note.structured_data, generatedSummary: note.summary, leftOut: note.left_out ?? [], engine: engineName };
  await r.keepLease();
  await systemDb(r.app, WORKER)
    .insert(sessionContent)
    .values({ sessionId: r.session.id, ...values })
    .onConflictDoUpdate({ target: sessionContent.sessionId, set: { ...values, updatedAt: new Date() } });
}

/** The terminal status (completed, or the skip a stage decided) with its webhook, in one transaction. */
async function complete(r: FinaliseRun): Promise<void> {
  const { status, reason } = r.outcome ?? { status: 'completed', reason: 'finalised' };
  await finishSession(r.app, r.session.id, status, { reason });
  r.outcome = { status, reason };
}

/** Finalisation, in order. A stage that sets `outcome` skips the rest up to `complete`, which always runs last. */
export const FINALISE_STAGES: readonly FinaliseStage[] = [
  { name: 'load_audio', run: load },
  { name: 'transcribe', run: transcribe },
  { name: 'speaker_roles', run: speakerRoles },
  { name: 'write_transcript', run: writeTranscript },
  { name: 'note_request', run: noteRequest },
  { name: 'notes', run: generate },
  { name: 'write_content', run: writeContent },
  { name: 'complete', run: complete },
];
