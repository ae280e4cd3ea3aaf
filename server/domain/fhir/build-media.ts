import type { Annotation, Encounter, Media, Patient, Practitioner } from '@medplum/fhirtypes';
import { BYTES_PER_MS } from '@/lib/contracts/stream-protocol';
import { JOIN_TOLERANCE_MS } from '../../recordings/join-contiguous-parts';
import { SYSTEM, ref } from './systems';
import type { ExportRecording } from './types';

/** Seconds to the millisecond, as a period of whole milliseconds gives them. */
const seconds = (ms: number) => Math.round(ms) / 1000;

/**
 * The recordings of the visit, the source the note was written from, one Media per part with audio of its own: a
 * part that is empty or only a reconnect's 1 ms probe (server/recordings/part-content.ts) holds nothing to
 * describe. The audio itself is not inlined: it is served, signed and expiring, by GET
 * /api/v1/ambient/session/{id}/recording.
 *
 * createdPeriod spans the audio the part holds, from its first sample by duration, so the two agree; the time its
 * connection closed (recordings.ended_at) is not the audio's end: a dropped connection is noticed later (0.17 s in
 * a browser trial, which made a part's period overlap the next one's). A part that opens with a probe is dated by
 * the audio after the probe, which continues the part before; its 1 ms overlap with that part is said in a note.
 */
export function buildMedia(recs: readonly ExportRecording[], patient: Patient, encounter: Encounter, practitioner: Practitioner): Media[] {
  const out: Media[] = [];
  // The last exported part of the session being walked, to tell an overlap of the parts' periods.
  let prev: { sessionId: string; sequenceNumber: number; endMs: number | null } | null = null;
  for (const rec of recs) {
    if (rec.content.kind !== 'audio') continue;
    const ms = Math.round(rec.durableBytes / BYTES_PER_MS);
    const probeOf = rec.content.probeOf;
    const startMs = probeOf ? Math.round(probeOf.endMs) - 1 : (rec.startTime?.getTime() ?? null);
    const note: Annotation[] = [];
    if (probeOf) {
      note.push({
        text: `The first 1 ms repeats audio of recording ${probeOf.sequenceNumber}, sent again when the recorder reconnected to learn how much of its audio was stored; the rest continues recording ${probeOf.sequenceNumber} from where it ends.`,
      });
    } else if (startMs !== null && prev?.sessionId === rec.sessionId && prev.endMs !== null && prev.endMs - startMs > JOIN_TOLERANCE_MS) {
      note.push({ text: `Its recorder dated its start ${seconds(prev.endMs - startMs)} s before recording ${prev.sequenceNumber} ends; its audio was not found to continue that recording.` });
    }
    out.push({
      resourceType: 'Media',
      id: rec.id,
      identifier: [{ system: SYSTEM.uri, value: `urn:uuid:${rec.id}` }],
      status: 'completed',
      type: { coding: [{ system: SYSTEM.mediaType, code: 'audio', display: 'Audio' }] },
      subject: ref(patient),
      encounter: ref(encounter),
      operator: ref(practitioner),
      ...(startMs !== null ? { createdPeriod: { start: new Date(startMs).toISOString(), end: new Date(startMs + ms).toISOString() } } : {}),
      duration: seconds(ms),
      content: { contentType: 'audio/wav', title: `Recording ${rec.sequenceNumber} of session ${rec.sessionId}` },
      ...(note.length ? { note } : {}),
    });
    prev = { sessionId: rec.sessionId, sequenceNumber: rec.sequenceNumber, endMs: startMs === null ? null : startMs + ms };
  }
  return out;
}
