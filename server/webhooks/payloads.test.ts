import { describe, expect, it } from 'vitest';
import { CkgPayload, SessionFailurePayload, SessionSuccessPayload, WEBHOOK_LINK_KEYS } from '@/lib/contracts/webhooks';
import { buildCkgPayload, buildSessionFailure, buildSessionNotification, buildSessionSuccess, sessionLinks } from './payloads';

const S = '11111111-1111-4111-8111-111111111111';
const S2 = '22222222-2222-4222-8222-222222222222';
const E = '33333333-3333-4333-8333-333333333333';
const BASE = 'https://ambient.example.org/';

describe('session SUCCESS payload', () => {
  const body = buildSessionSuccess(BASE, { id: S, encounterId: E, status: 'completed', noteId: S2, emrEncounterId: 'EMR-9' }, [S2, S]);

  it('has exactly the spec fields and validates against the contract', () => {
    expect(Object.keys(body).sort()).toEqual(['_links', 'additional_info', 'encounter_id', 'session_id', 'sessions', 'status']);
    expect(SessionSuccessPayload.parse(body)).toEqual(body);
    expect(body).toMatchObject({ status: 'SUCCESS', session_id: S, encounter_id: E, sessions: [S2, S] });
    expect(body.additional_info).toEqual({ note_id: S2, emr_encounter_id: 'EMR-9' });
  });

  it('links every key to this service own GET endpoints under PUBLIC_BASE_URL', () => {
    expect(Object.keys(body._links).sort()).toEqual([...WEBHOOK_LINK_KEYS].sort());
    const hrefs = Object.fromEntries(Object.entries(body._links).map(([k, v]) => [k, v.map((l) => l.href)]));
    expect(hrefs).toEqual({
      contents: [`https://ambient.example.org/api/v1/ambient/session/${S}/content`],
      encounter_content: [`https://ambient.example.org/api/v1/ambient/encounter/${E}/content`],
      structured_data: [`https://ambient.example.org/api/v1/ambient/session/${S}/structured-data`],
      encounter_structured_data: [`https://ambient.example.org/api/v1/ambient/encounter/${E}/structured-data`],
      section_structured_data: [`https://ambient.example.org/api/v1/ambient/session/${S}/structured-data`],
      encounter_section_structured_data: [`https://ambient.example.org/api/v1/ambient/encounter/${E}/structured-data`],
      transcripts: [`https://ambient.example.org/api/v1/ambient/session/${S}/transcript`],
      status: [`https://ambient.example.org/api/v1/ambient/session/${S}/status`],
      fhir: [`https://ambient.example.org/api/v1/ambient/session/${S}/fhir`, `https://ambient.example.org/api/v1/ambient/encounter/${E}/fhir`],
    });
    for (const links of Object.values(body._links)) for (const l of links) expect(l.method).toBe('GET');
    expect(new Set(Object.values(body._links).flatMap((ls) => ls.map((l) => l.name))).size).toBe(10);
    expect(body._links.fhir.map((l) => l.name)).toEqual(['session_fhir', 'encounter_fhir']);
  });

  it('always lists the session itself among the encounter sessions and omits empty additional_info', () => {
    const b = buildSessionSuccess('http://h:1', { id: S, encounterId: E, status: 'completed' }, [S2]);
    expect(b.sessions).toEqual([S2, S]);
    expect('additional_info' in b).toBe(false);
    expect(sessionLinks('http://h:1', S, E).status[0]!.href).toBe(`http://h:1/api/v1/ambient/session/${S}/status`);
  });
});

describe('session FAILURE payload', () => {
  it('carries the session error code and detail', () => {
    const body = buildSessionFailure({ id: S, encounterId: E, status: 'failed', errorCode: 'TRANSCRIPTION_FAILED', errorDetail: 'speech engine unavailable' });
    expect(body).toEqual({ status: 'FAILURE', session_id: S, encounter_id: E, error_code: 'TRANSCRIPTION_FAILED', error_detail: 'speech engine unavailable' });
    expect(SessionFailurePayload.parse(body)).toEqual(body);
  });

  it('reports a skipped session as SKIPPED_INSUFFICIENT_AUDIO with an explanation', () => {
    const body = buildSessionFailure({ id: S, encounterId: E, status: 'skipped' });
    expect(body.error_code).toBe('SKIPPED_INSUFFICIENT_AUDIO');
    expect(body.error_detail).toMatch(/not enough audio/);
  });

  it('falls back to PROCESSING_FAILED for a failed session without a code', () => {
    expect(buildSessionFailure({ id: S, encounterId: E, status: 'failed' }).error_code).toBe('PROCESSING_FAILED');
  });
});

describe('buildSessionNotification', () => {
  it('maps completed → SUCCESS, failed/skipped → FAILURE, aborted and open sessions → nothing', () => {
    const s = (status: string) => buildSessionNotification(BASE, { id: S, encounterId: E, status }, [S]);
    expect(s('completed')).toMatchObject({ eventType: 'session.success', payload: { status: 'SUCCESS' } });
    expect(s('failed')).toMatchObject({ eventType: 'session.failure', payload: { status: 'FAILURE' } });
    expect(s('skipped')).toMatchObject({ eventType: 'session.failure', payload: { error_code: 'SKIPPED_INSUFFICIENT_AUDIO' } });
    for (const st of ['aborted', 'created', 'ready', 'running']) expect(s(st)).toBeNull();
  });
});

describe('CKG payload', () => {
  it('has state and transaction_id, and error only when given', () => {
    expect(buildCkgPayload('t1', 'COMPLETED')).toEqual({ state: 'COMPLETED', transaction_id: 't1' });
    const failed = buildCkgPayload('t2', 'FAILED', { code: 'INVALID_RESOURCE', message: 'entry[0]: bad' });
    expect(failed).toEqual({ state: 'FAILED', transaction_id: 't2', error: { code: 'INVALID_RESOURCE', message: 'entry[0]: bad' } });
    expect(CkgPayload.parse(failed)).toEqual(failed);
  });
});
