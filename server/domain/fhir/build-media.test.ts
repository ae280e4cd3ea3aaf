import { describe, expect, it } from 'vitest';
import type { Bundle, Media, Provenance, Resource } from '@medplum/fhirtypes';
import { buildDocumentBundle } from './build-document-bundle';
import { buildMedia } from './build-media';
import { findUnresolvedReferences } from './find-unresolved-references';
import { validateFhirResource } from './validate-fhir-resource';
import type { ExportRecording, FhirExportSource } from './types';

const SESSION = 'bf30b92d-0fb0-4edb-98de-ab8025c29a29';
const PATIENT = { resourceType: 'Patient', id: 'p' } as const;
const ENCOUNTER = { resourceType: 'Encounter', id: 'e', status: 'finished', class: { code: 'AMB' } } as const;
const PRACTITIONER = { resourceType: 'Practitioner', id: 'dr' } as const;
const AUDIO = { kind: 'audio', probeOf: null } as const;

const rec = (sequenceNumber: number, start: string | null, ms: number, content: ExportRecording['content'] = AUDIO, sessionId = SESSION): ExportRecording => ({
  id: `0000000${sequenceNumber}-0000-4000-8000-000000000000`,
  sessionId,
  sequenceNumber,
  startTime: start === null ? null : new Date(start),
  durableBytes: ms * 32,
  content,
});
const media = (recs: ExportRecording[]) => buildMedia(recs, PATIENT, ENCOUNTER, PRACTITIONER);
const periodMs = (m: Media) => Date.parse(m.createdPeriod!.end!) - Date.parse(m.createdPeriod!.start!);
const errorsOf = (r: Resource) => validateFhirResource(r).filter((i) => i.severity === 'error' || i.severity === 'fatal');

// The browser trial of 2 Dec, as stored: part 2 resent from where part 1 ends after a 6 s network cut; part 3
// the reloaded page's 1 ms probe, dated 200 ms before part 2 ends; part 4 after "Continue recording".
const TRIAL = [
  rec(1, '2026-12-02T10:20:42.234Z', 27_200),
  rec(2, '2026-12-02T10:21:09.434Z', 67_800),
  rec(3, '2026-12-02T10:22:17.034Z', 1, { kind: 'probe', repeats: 2 }),
  { ...rec(4, '2026-12-02T10:22:20.441Z', 0), durableBytes: 92_414 },
];

describe('buildMedia', () => {
  it('gives no Media for a probe-sized part or an empty one', () => {
    const out = media([...TRIAL, rec(5, '2026-12-02T10:22:30.000Z', 0, { kind: 'empty' })]);
    expect(out.map((m) => m.content.title)).toEqual([1, 2, 4].map((n) => `Recording ${n} of session ${SESSION}`));
  });

  it("dates each Media by its audio: the period is its duration, and parts resent end to end do not overlap (the trial's 0.17 s came from the close)", () => {
    const out = media(TRIAL);
    expect(out.map((m) => [m.createdPeriod, m.duration])).toEqual([
      [{ start: '2026-12-02T10:20:42.234Z', end: '2026-12-02T10:21:09.434Z' }, 27.2],
      [{ start: '2026-12-02T10:21:09.434Z', end: '2026-12-02T10:22:17.234Z' }, 67.8],
      // 92,414 bytes is 2,887.9375 ms: both to the millisecond.
      [{ start: '2026-12-02T10:22:20.441Z', end: '2026-12-02T10:22:23.329Z' }, 2.888],
    ]);
    for (const m of out) expect(periodMs(m) / 1000).toBe(m.duration);
    for (let i = 1; i < out.length; i++) expect(Date.parse(out[i]!.createdPeriod!.start!)).toBeGreaterThanOrEqual(Date.parse(out[i - 1]!.createdPeriod!.end!));
    expect(out.every((m) => m.note === undefined)).toBe(true);
  });

  it('dates a resend that opens with a probe from where the part it continues ends, and says why it overlaps by 1 ms', () => {
    // The server held 2.3 s of part 1 when the ACKs stopped at 1.9 s: part 2 is the probe dated 1.9 s, then 2.3 s on.
    const out = media([
      rec(1, '2026-11-28T10:00:00.000Z', 2_300),
      rec(2, '2026-11-28T10:00:01.900Z', 2_701, { kind: 'audio', probeOf: { sequenceNumber: 1, endMs: Date.parse('2026-11-28T10:00:02.300Z') } }),
    ]);
    expect(out[1]!.createdPeriod).toEqual({ start: '2026-11-28T10:00:02.299Z', end: '2026-11-28T10:00:05.000Z' });
    expect(out[1]!.duration).toBe(2.701);
    expect(out[1]!.note![0]!.text).toMatch(/^The first 1 ms repeats audio of recording 1, .*; the rest continues recording 1 from where it ends\.$/);
  });

  it('says so where a part is dated inside the one before and its audio does not continue it', () => {
    const out = media([rec(1, '2026-11-28T10:00:00.000Z', 2_300), rec(2, '2026-11-28T10:00:01.900Z', 1_000)]);
    expect(out[1]!.createdPeriod).toEqual({ start: '2026-11-28T10:00:01.900Z', end: '2026-11-28T10:00:02.900Z' });
    expect(out[1]!.note).toEqual([{ text: 'Its recorder dated its start 0.4 s before recording 1 ends; its audio was not found to continue that recording.' }]);
    // START_TIME rounding is no overlap, nor is the part of another session of the encounter.
    expect(media([rec(1, '2026-11-28T10:00:00.000Z', 2_300), rec(2, '2026-11-28T10:00:02.290Z', 1_000)])[1]!.note).toBeUndefined();
    expect(media([rec(1, '2026-11-28T10:00:00.000Z', 2_300), rec(1, '2026-11-28T10:00:01.000Z', 1_000, AUDIO, 'other-session')])[1]!.note).toBeUndefined();
  });

  it('gives no period to a part without START_TIME, and still its duration', () => {
    const [m] = media([rec(1, null, 1_500)]);
    expect(m!.createdPeriod).toBeUndefined();
    expect(m!.duration).toBe(1.5);
  });

  it("validates against FHIR R4 in the trial's document Bundle, and Provenance names only the Media exported", () => {
    const src: FhirExportSource = {
      base: 'https://ambient.example.org',
      partnerId: 'acme',
      scope: { kind: 'session', id: SESSION },
      compositionId: '22222222-2222-4222-8222-222222222222',
      encounterId: '33333333-3333-4333-8333-333333333333',
      emrEncounterId: null,
      status: 'completed',
      context: { patient: { dob: '1960-04-02', sex: 'female' } },
      provider: { id: '44444444-4444-4444-8444-444444444444', name: 'Dr. Grace Hopper', email: null, partnerProviderId: null },
      content: { summary: [{ title: 'Assessment and plan', content: 'Diabetes, stable.', loinc_code: '51847-2', source_transcripts: [] }], structured_data: { diagnoses: { values: [] }, orders: { medication_orders: { values: [], partial_values: [] }, service_orders: { values: [] } }, allergies: { values: [] }, section_structured_values: [] } },
      engines: ['embedded'],
      serviceVersion: '0.1.0',
      hccModel: 'V28',
      noteStatus: 'draft',
      signedAt: null,
      updatedAt: new Date('2026-12-02T10:22:32.690Z'),
      period: { start: new Date('2026-12-02T10:20:42.291Z'), end: new Date('2026-12-02T10:22:23.350Z') },
      recordings: [
        ...TRIAL,
        rec(5, '2026-12-02T10:22:23.329Z', 3_000, { kind: 'audio', probeOf: { sequenceNumber: 4, endMs: Date.parse('2026-12-02T10:22:23.329Z') } }),
        rec(6, '2026-12-02T10:22:25.000Z', 1_000),
      ],
    };
    const bundle: Bundle = buildDocumentBundle(src);
    expect(errorsOf(bundle)).toEqual([]);
    for (const e of bundle.entry ?? []) expect(errorsOf(e.resource!), e.fullUrl).toEqual([]);
    expect(findUnresolvedReferences(bundle)).toEqual([]);
    const all = (bundle.entry ?? []).map((e) => e.resource!);
    const exported = all.filter((r): r is Media => r.resourceType === 'Media');
    expect(exported.map((m) => m.id)).toEqual([1, 2, 4, 5, 6].map((n) => rec(n, null, 0).id));
    expect(exported.filter((m) => m.note).length).toBe(2);
    const prov = all.find((r): r is Provenance => r.resourceType === 'Provenance')!;
    expect(prov.entity!.map((x) => x.what.reference)).toEqual(exported.map((m) => `Media/${m.id}`));
  }, 60_000);
});
