import { and, asc, eq, ne } from 'drizzle-orm';
import { emptyStructuredData, storedStructuredData, type SessionContext, type StructuredData, type SummarySection } from '@/lib/contracts/sessions';
import type { TranscriptWord } from '@/lib/transcript/confidence';
import type { TenantDb } from '../../db';
import { noteSectionVersions, structuredDataVersions, transcriptEntries } from '../../db/schema';
import type { LeftOutItem, TranscriptLine } from '../../engines/notes/types';
import type { SpeakerRole } from '../../engines/speech/types';
import type { ReviewInputs } from './build-review-items';
import { loadRecordingGaps } from '../sessions/load-recording-gaps';

/** The stored note row's columns the review reads. */
export interface StoredNote {
  summary: unknown;
  structuredData: unknown;
  generatedSummary: unknown;
  leftOut: unknown;
}

/**
 * What the review is built from: the note as it stands, what was left out of it, the sections changed since
 * generation, and the transcript and context the note is checked against. Notes generated before the
 * generated text was kept count a section as edited when it has a recorded edit.
 */
export async function loadReviewInputs(tdb: TenantDb, sessionId: string, context: unknown, note: StoredNote): Promise<ReviewInputs> {
  const summary = (Array.isArray(note.summary) ? note.summary : []) as SummarySection[];
  const rows = await tdb.list(transcriptEntries, { where: eq(transcriptEntries.sessionId, sessionId), orderBy: asc(transcriptEntries.position) });
  const source = rows.some((r) => r.source === 'final') ? 'final' : 'live';
  const transcript: TranscriptLine[] = rows
    .filter((r) => r.source === source)
    .map((r) => ({
      transcriptId: r.id,
      speaker: r.speaker as SpeakerRole,
      text: r.text,
      startMs: r.startOffsetMs,
      endMs: r.endOffsetMs,
      ...(r.confidence !== null ? { confidence: r.confidence } : {}),
      ...(Array.isArray(r.words) ? { words: r.words as TranscriptWord[] } : {}),
    }));

  let edited: Set<string>;
  if (Array.isArray(note.generatedSummary)) {
    const generated = new Map((note.generatedSummary as SummarySection[]).map((s) => [s.loinc_code, s.content]));
    edited = new Set(summary.filter((s) => generated.get(s.loinc_code) !== s.content).map((s) => s.loinc_code));
  } else {
    const versions = await tdb.select(noteSectionVersions, { loinc: noteSectionVersions.loincCode }, eq(noteSectionVersions.sessionId, sessionId));
    edited = new Set(versions.map((v) => v.loinc));
  }

  const changes = await tdb.select(
    structuredDataVersions,
    { kind: structuredDataVersions.kind, after: structuredDataVersions.after },
    and(eq(structuredDataVersions.sessionId, sessionId), ne(structuredDataVersions.action, 'remove')),
  );
  const clinicianEntered = emptyStructuredData();
  for (const c of changes) {
    if (c.kind === 'diagnoses') clinicianEntered.diagnoses.values.push(c.after as StructuredData['diagnoses']['values'][number]);
    if (c.kind === 'medication_orders') clinicianEntered.orders.medication_orders.values.push(c.after as StructuredData['orders']['medication_orders']['values'][number]);
  }

  const ctx = (context ?? {}) as SessionContext;
  const clinicianText = (ctx.sections ?? []).flatMap((s) => (s.precharted_content ?? []).flatMap((p) => (p.type === 'string' ? [p.content] : [])));
  return {
    summary,
    structuredData: storedStructuredData(note.structuredData),
    leftOut: (Array.isArray(note.leftOut) ? note.leftOut : []) as LeftOutItem[],
    edited,
    clinicianEntered,
    transcript,
    recordingGaps: await loadRecordingGaps(tdb, sessionId),
    context: { ...(ctx.visit ? { visit: ctx.visit } : {}), clinicianText },
  };
}
