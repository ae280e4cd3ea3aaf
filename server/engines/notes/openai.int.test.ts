/**
 * A streamed visit with NOTES_ENGINE=openai pointed at the STAND-IN chat server (server/test/
 * openai-chat-stand-in.ts: a real HTTP server in this process standing in for an OpenAI-compatible server
 * such as Ollama or vLLM, since none can be reached here). The stand-in first answers 429, then a note that
 * invents a dose, a diagnosis and an allergy, codes diabetes with a nonexistent ICD-10-CM code and cites ids
 * that do not exist. Through the API and the FHIR export: none of it is in the note, the review lists each
 * removal as "removed: not found in the visit", and the checker finds 0 unsupported facts in what is served.
 * Then the stand-in goes away, and the next visit fails with the reason in the session's status.
 */
import type { Bundle, Condition, MedicationRequest } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin, type TestProvider } from '../../test/partners';
import { call, createSession, waitForSessionStatus } from '../../test/session-api';
import { testApi } from '../../test/api-client';
import { getSessionContent, getSessionStructuredData, getTranscript, setSessionContext } from '@/lib/contracts/routes/sessions';
import { getNoteReview } from '@/lib/contracts/routes/workflow';
import { exportSessionFhir } from '@/lib/contracts/routes/fhir';
import { getMetrics } from '@/lib/contracts/routes/meta';
import { getAdminSession } from '@/lib/contracts/routes/admin-sessions';
import { TestSocket } from '../../test/ws-client';
import { startChatStandIn, type ChatStandIn } from '../../test/openai-chat-stand-in';
import { FAKE_ID, VISIT_TURNS, inventingModelNote } from '../../test/inventing-model-note';
import { synthesizeDialogue } from '../speech/synth';
import { checkNoteFaithfulness } from './faithfulness/index';
import type { TranscriptLine } from './types';

let standIn: ChatStandIn;
let server: TestServer;
let dr: TestProvider;

beforeAll(async () => {
  standIn = await startChatStandIn((req, n) => (n === 0 ? { status: 429, headers: { 'retry-after': '0' } } : { content: JSON.stringify(inventingModelNote(req.lines)) }));
  server = await startServer({
    env: {
      NOTES_ENGINE: 'openai',
      NOTES_BASE_URL: standIn.baseUrl,
      NOTES_MODEL: 'stand-in-model',
      NOTES_API_KEY: 'sk-stand-in',
      NOTES_MAX_RETRIES: '2',
      FINALISE_RETRY_LIMIT: '0',
      FHIR_VALIDATE: 'true',
    },
  });
  dr = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
}, 240_000);
afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

/** Streams the dialogue as one recording and ends it; answers the session id. */
async function streamVisit(turns: typeof VISIT_TURNS): Promise<string> {
  const pcm = synthesizeDialogue(turns, 700).pcm;
  const { ambient_session_id: id } = await createSession(server, dr);
  const context = { patient: { emr_patient_id: `PT-${id.slice(0, 8)}`, dob: '1961-05-02', sex: 'female' }, visit: { visit_type: 'FOLLOW_UP', encounter_type: 'AMBULATORY' } };
  expect((await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: context })).status).toBe(200);
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, dr.serviceToken] });
  ws.startTime('2026-11-27T10:00:00Z');
  await ws.sendPcm(pcm);
  await ws.next((f) => f.type === 'ACK' && f.received_ms === Math.floor(pcm.length / 32), 'ACK of all audio', 300_000);
  ws.eof();
  await ws.closed;
  return id;
}

describe('NOTES_ENGINE=openai behind the guard, end to end', () => {
  let id = '';
  it('completes the visit after a 429 and serves a note with 0 unsupported facts', async () => {
    id = await streamVisit(VISIT_TURNS);
    // A bound for a wedged pipeline (decoding speech on two shared cores took minutes), not a speed check.
    expect(await waitForSessionStatus(server, dr, id, ['completed', 'failed', 'skipped'], 1_000_000)).toBe('completed');
    // The 429, then the answer that was used.
    expect(standIn.requests.length).toBe(2);
    expect(standIn.requests[1].authorization).toBe('Bearer sk-stand-in');

    const transcript = (await call(server, dr, getTranscript, { params: { ambient_session_id: id } })).body.final_transcript as any[];
    const lines: TranscriptLine[] = transcript.map((e) => ({ transcriptId: e.transcript_id, speaker: e.speaker, text: e.transcript, startMs: 0, endMs: 0 }));
    expect(standIn.requests[1].lines.map((l) => l.id)).toEqual(lines.map((l) => l.transcriptId));
    const content = (await call(server, dr, getSessionContent, { params: { ambient_session_id: id } })).body;
    const data = (await call(server, dr, getSessionStructuredData, { params: { ambient_session_id: id } })).body;
    expect(data.structured_data).toEqual(content.structured_data);
    const note = { summary: content.summary, structured_data: content.structured_data };
    const report = checkNoteFaithfulness(note, lines);
    expect(report.unsupported.map((u) => `${u.sentence.text}: ${u.result.fact.kind} ${u.result.fact.key}`)).toEqual([]);
    const text = JSON.stringify(note);
    expect(text).not.toMatch(/sulfa|heart failure|I50\.9|E11\.999|1000/i);
    expect(text).not.toContain(FAKE_ID);
    // Every evidence id served is a transcript entry of this visit.
    const ids = new Set(lines.map((l) => l.transcriptId));
    const cited = (note.summary as any[]).flatMap((s) => [...s.source_transcripts, ...(s.sentences ?? []).flatMap((x: any) => x.source_transcripts)]);
    expect(cited.every((c) => ids.has(c))).toBe(true);
    const codes = (note.structured_data.diagnoses.values as any[]).flatMap((d) => d.codes.filter((c: any) => c.type === 'ICD10').map((c: any) => c.code));
    expect(codes.every((c) => ['I10', 'E11.9'].includes(c))).toBe(true);
  }, 1_200_000);

  it('lists each removal in the review before signing as removed: not found in the visit', async () => {
    const review = await call(server, dr, getNoteReview, { params: { ambient_session_id: id } });
    expect(review.status).toBe(200);
    const removed = (review.body.items as any[]).filter((i) => i.kind === 'UNSUPPORTED');
    expect(removed.every((i) => /^Removed: not found in the visit/.test(i.detail))).toBe(true);
    const said = removed.map((i) => i.text).join('\n');
    expect(said).toMatch(/sulfa/i);
    expect(said).toMatch(/heart failure/i);
    expect(said).toMatch(/metformin.*1000|1000 mg/i);
  });

  it('exports FHIR without the invented facts, naming the engine', async () => {
    const res = await call(server, dr, exportSessionFhir, { params: { ambient_session_id: id } });
    expect(res.status).toBe(200);
    const bundle = res.body as Bundle;
    const all = (bundle.entry ?? []).map((e) => e.resource!);
    const conditions = all.filter((r): r is Condition => r.resourceType === 'Condition');
    const icd = conditions.flatMap((c) => (c.code?.coding ?? []).filter((x) => /icd-10/i.test(x.system ?? '')).map((x) => x.code));
    expect(icd.length).toBe(conditions.length);
    expect(icd.every((c) => ['I10', 'E11.9'].includes(c ?? ''))).toBe(true);
    const doses = all
      .filter((r): r is MedicationRequest => r.resourceType === 'MedicationRequest')
      .flatMap((m) => (m.dosageInstruction ?? []).flatMap((d) => (d.doseAndRate ?? []).map((x) => x.doseQuantity?.value)));
    expect(doses).not.toContain(1000);
    expect(all.some((r) => r.resourceType === 'AllergyIntolerance' && /sulfa/i.test(JSON.stringify(r)))).toBe(false);
    expect(JSON.stringify(bundle)).not.toMatch(/sulfa|heart failure|I50\.9|E11\.999/i);
    expect(JSON.stringify(bundle)).toContain('openai');
  });

  it('logs the guard decision as counts with the session id, never note text, and counts it on /metrics', async () => {
    const line = server
      .logs()
      .split('\n')
      .filter((l) => l.includes('"notes guard"'))
      .map((l) => JSON.parse(l))
      .find((l) => l.sessionId === id);
    expect(line).toMatchObject({ engine: 'openai', mode: 'remove', remaining: 0 });
    // The invented sulfa allergy at least; the penicillin one too when the recogniser lost the word.
    expect(line.removed.allergy).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(line)).not.toMatch(/sulfa|metformin|heart|penicillin|pressure/i);
    const metrics = (await testApi(server).call(getMetrics)).text;
    expect(metrics).toMatch(/notes_guard_notes_total\{engine="openai",outcome="removed"\} 1/);
    expect(metrics).toContain(`notes_guard_removed_total{engine="openai",kind="allergy"} ${line.removed.allergy}`);
    expect(metrics).toContain(`notes_guard_unsupported_facts_total{engine="openai",kind="allergy"} ${line.factKinds.allergy}`);
  });

  it('fails the next visit with the reason in its status when the model cannot be reached', async () => {
    await standIn.close();
    const next = await streamVisit(VISIT_TURNS.slice(0, 2));
    expect(await waitForSessionStatus(server, dr, next, ['completed', 'failed', 'skipped'], 1_000_000)).toBe('failed');
    const admin = (await testApi(server, 'admin').call(getAdminSession, { params: { id: next } })).body;
    expect(admin.session.error_code).toBe('NOTE_GENERATION_FAILED');
    expect(admin.session.error_detail).toMatch(/^note generation failed: the notes model \(NOTES_BASE_URL, model stand-in-model\) could not be reached \(ECONNREFUSED\) after 3 attempts$/);
  }, 1_200_000);
});
