import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { isTerminal } from '@/lib/contracts/session-status';
import type { AppContext } from '../context';
import { ambientSessions, sessionContent, transcriptEntries } from '../db/schema';
import { AudioUnavailableError, loadAudio as loadStoredAudio, settleTimeline } from '../recordings/load-audio';
import { transitionSession } from '../domain/sessions/transition-session';
import { assignSpeakerRoles } from '../engines/speech/speakers';
import type { SpeechSegment } from '../engines/speech/types';
import { buildSpeechBias } from '../domain/sessions/build-speech-bias';
import type { TranscriptLine } from '../engines/notes/types';
import { generateVisitNote } from './generate-visit-note';
import type { OpenStreams } from './open-streams';
import { timeStage } from '../observability/metrics';
import { acquireFinaliseLease, type FinaliseLease } from './finalise-lease';
import { FinaliseError } from './finalise-error';
import { transcribeRecording, type TimedSegment } from './transcribe-recording';

export { FinaliseError };

/** `busy`: another run holds the session's finalisation lease and will finish it (or its lease lapses). */
export type FinaliseOutcome = 'completed' | 'skipped' | 'unchanged' | 'busy';

/** This run's lease lapsed and another run took the session over: it must not write its results. */
class LeaseLost extends Error {}

async function skip(app: AppContext, sessionId: string, reason: string): Promise<FinaliseOutcome> {
  await transitionSession(app, sessionId, 'skipped', { allowSame: true, reason });
  return 'skipped';
}

/**
 * Audio → final transcript → speaker roles → note → completed (or skipped). One run per session at a time,
 * in any process, under a lease on the session row; a second run answers `busy`. Idempotent: every write
 * replaces the previous run's, so a re-run after a crash at any point leaves one result.
 */
export async function finaliseSession(app: AppContext, sessionId: string): Promise<FinaliseOutcome> {
  const lease = await acquireFinaliseLease(app, sessionId);
  if (!lease) return 'busy';
  try {
    // Read under the lease: a run that finished while this one waited has left the session terminal.
    const session = (await app.db.select().from(ambientSessions).where(eq(ambientSessions.id, sessionId)).limit(1))[0];
    if (!session || isTerminal(session.status) || session.status === 'created') return 'unchanged';
    return await finaliseHeld(app, session, lease);
  } catch (err) {
    if (err instanceof LeaseLost) return 'busy';
    throw err;
  } finally {
    await lease.release().catch((err: Error) => app.log.warn({ sessionId, err: err.message }, 'finalisation lease not released'));
  }
}

async function keepLease(lease: FinaliseLease): Promise<void> {
  if (!(await lease.held())) throw new LeaseLost();
}

async function finaliseHeld(app: AppContext, session: typeof ambientSessions.$inferSelect, lease: FinaliseLease): Promise<FinaliseOutcome> {
  const sessionId = session.id;
  if (session.status === 'ready') await transitionSession(app, sessionId, 'running', { allowSame: true, reason: 'finalisation' });
  // A stream still open in this process is ended first so its last audio and live segments are settled.
  const streams: OpenStreams = app.services.hub;
  await streams.takeOver(sessionId, 'session audio has ended');

  const recs = await timeStage(app, 'load_audio', () =>
    loadStoredAudio(app, sessionId).catch((err: Error) => {
      throw err instanceof AudioUnavailableError ? new FinaliseError('AUDIO_UNAVAILABLE', err.message) : err;
    }),
  );
  const totalMs = await settleTimeline(app, sessionId, recs);
  if (totalMs < app.config.minSpeechMs) return skip(app, sessionId, `audio ${totalMs} ms is below the minimum ${app.config.minSpeechMs} ms`);

  const segments: TimedSegment[] = [];
  const bias = await buildSpeechBias(app, session);
  // How much of the decoding the live pass had done already (issue 18: decode each second once).
  let liveComplete = 0;
  let liveUtterances = 0;
  await timeStage(app, 'transcribe', async () => {
    for (const r of recs) {
      const t = await transcribeRecording(app, r, bias);
      if (t.liveComplete) liveComplete++;
      liveUtterances += t.liveUtterances;
      for (const s of t.segments) {
        const words = s.words?.map((w) => ({ ...w, startMs: Math.round(w.startMs + r.offsetMs), endMs: Math.round(w.endMs + r.offsetMs) }));
        segments.push({ ...s, startMs: s.startMs + r.offsetMs, endMs: s.endMs + r.offsetMs, words });
      }
    }
  });
  app.log.info({ sessionId, recordings: recs.length, liveComplete, liveUtterances }, 'final transcript');
  if (!segments.some((s) => s.text.trim())) return skip(app, sessionId, 'empty transcript');

  const sessionPcm = Buffer.concat(recs.map((r) => r.pcm));
  let roles: SpeechSegment[];
  try {
    roles = assignSpeakerRoles(
      segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs, isFinal: true, words: [] })),
      sessionPcm,
    );
  } catch (err) {
    // Roles are an enrichment: a transcript with UNKNOWN speakers is still a valid result.
    app.log.warn({ sessionId, err: (err as Error).message }, 'speaker roles not assigned');
    roles = segments.map((s) => ({ text: s.text, startMs: s.startMs, endMs: s.endMs, isFinal: true, words: [], speaker: 'UNKNOWN' }));
  }

  const lines: TranscriptLine[] = segments.map((s, i) => ({
    transcriptId: crypto.randomUUID(),
    speaker: roles[i]?.speaker ?? 'UNKNOWN',
    text: s.text,
    startMs: Math.round(s.startMs),
    endMs: Math.round(s.endMs),
    ...(s.confidence !== undefined ? { confidence: s.confidence } : {}),
    ...(s.words ? { words: s.words } : {}),
  }));
  await keepLease(lease);
  await app.db.transaction(async (tx) => {
    await tx.delete(transcriptEntries).where(and(eq(transcriptEntries.sessionId, sessionId), eq(transcriptEntries.source, 'final')));
    await tx.insert(transcriptEntries).values(
      lines.map((l, i) => ({
        id: l.transcriptId,
        sessionId,
        recordingId: segments[i]!.recordingId,
        position: i,
        source: 'final',
        text: l.text,
        speaker: l.speaker,
        langId: segments[i]!.lang && segments[i]!.lang !== 'en' ? segments[i]!.lang! : 'en-US',
        startOffsetMs: l.startMs,
        endOffsetMs: l.endMs,
        confidence: l.confidence ?? null,
        words: l.words ?? null,
      })),
    );
  });

  let note;
  let engineName;
  try {
    ({ note, engineName } = await generateVisitNote(app, session, lines));
  } catch (err) {
    throw new FinaliseError('NOTE_GENERATION_FAILED', `note generation failed: ${(err as Error).message}`);
  }
  await keepLease(lease);
  await app.db
    .insert(sessionContent)
    .values({ sessionId, summary: note.summary, structuredData: note.structured_data, generatedSummary: note.summary, leftOut: note.left_out ?? [], engine: engineName })
    .onConflictDoUpdate({
      target: sessionContent.sessionId,
      set: { summary: note.summary, structuredData: note.structured_data, generatedSummary: note.summary, leftOut: note.left_out ?? [], engine: engineName, updatedAt: new Date() },
    });
  await transitionSession(app, sessionId, 'completed', { allowSame: true, reason: 'finalised' });
  return 'completed';
}
