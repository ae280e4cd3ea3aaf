import type { Encounter, Media, Patient, Practitioner } from '@medplum/fhirtypes';
import { SYSTEM, ref } from './systems';
import type { ExportRecording } from './types';

/** 16 kHz mono 16-bit PCM: the only format the service stores audio in. */
const BYTES_PER_SECOND = 32_000;

/**
 * One recording of the visit, the source the note was written from. The audio itself is not inlined:
 * it is served, signed and expiring, by GET /api/v1/ambient/session/{id}/recording.
 */
export function buildMedia(rec: ExportRecording, patient: Patient, encounter: Encounter, practitioner: Practitioner): Media {
  const start = rec.startTime?.toISOString();
  const end = rec.endedAt?.toISOString();
  return {
    resourceType: 'Media',
    id: rec.id,
    identifier: [{ system: SYSTEM.uri, value: `urn:uuid:${rec.id}` }],
    status: 'completed',
    type: { coding: [{ system: SYSTEM.mediaType, code: 'audio', display: 'Audio' }] },
    subject: ref(patient),
    encounter: ref(encounter),
    operator: ref(practitioner),
    ...(start ? { createdPeriod: { start, ...(end && end >= start ? { end } : {}) } } : {}),
    duration: Math.round((rec.durableBytes / BYTES_PER_SECOND) * 1000) / 1000,
    content: { contentType: 'audio/wav', title: `Recording ${rec.sequenceNumber} of session ${rec.sessionId}` },
  };
}
