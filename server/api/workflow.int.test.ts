/**
 * Clinician workflow API (issue 17) on the real server: patient name and MRN on a visit, search and
 * the needs-review list, sign / amend / history with section versions and the lock, the opt-in
 * NOTE_SIGNED webhook (and nothing new for partners that did not opt in), and the after-visit summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { adminFetch, createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { TestSocket } from '../test/ws-client';
import { synthesizeDialogue } from '../engines/speech/synth';
import { startTestReceiver, type TestReceiver } from '../webhooks/testing/receiver';
import { verifyWebhookSignature } from '../webhooks/sign';
import { readingGrade } from '../domain/visit-summary/reading-grade';

let server: TestServer;
let receiver: TestReceiver;
let optedIn: TestPartner;
let notOptedIn: TestPartner;
let dr: TestProvider;
let quietDr: TestProvider;

async function call(who: TestProvider, method: string, p: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.baseUrl}${p}`, { method, headers: who.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** A real visit: created with context, streamed as synthesised speech, finalised by the pipeline. */
async function completedVisit(who: TestProvider, patient: Record<string, string>, chief: string): Promise<string> {
  const created = await call(who, 'POST', '/api/v1/ambient/session/create', {});
  const id = created.json.ambient_session_id as string;
  const ctx = await call(who, 'POST', `/api/v1/ambient/session/${id}/context`, { patient, visit: { chief_complaint: chief, visit_type: 'NEW_PATIENT' } });
  expect(ctx.status, JSON.stringify(ctx.json)).toBe(200);
  const ws = await TestSocket.open(`${server.wsUrl}/ws/ambient`, { protocols: ['AmbientAuth', id, who.serviceToken] });
  ws.startTime();
  const { pcm } = synthesizeDialogue(
    [
      { role: 'PATIENT', text: 'I have had a cough and a fever for two weeks.' },
      { role: 'CLINICIAN', text: 'I think this is acute bronchitis. Start amoxicillin five hundred milligrams three times a day for seven days.' },
      { role: 'CLINICIAN', text: 'Drink plenty of fluids and rest. Come back if the fever lasts more than three days.' },
    ],
    400,
  );
  await ws.sendPcm(pcm);
  ws.eof();
  await ws.closed;
  // A bound for a wedged pipeline, not a speed assertion: two cores shared by parallel suites are slow.
  const deadline = Date.now() + 420_000;
  while (Date.now() < deadline) {
    const s = (await call(who, 'GET', `/api/v1/ambient/session/${id}/status`)).json.status;
    if (s === 'completed') return id;
    if (['failed', 'skipped', 'aborted'].includes(s)) throw new Error(`visit ended ${s}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('visit did not complete');
}

let visitId: string;
let quietVisitId: string;

beforeAll(async () => {
  receiver = await startTestReceiver();
  server = await startServer();
  optedIn = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/opted-in'), extra: { notify_note_signed: true } });
  notOptedIn = await createTestPartner(server.baseUrl, { webhook_url: receiver.url('/spec-only') });
  dr = await registerAndLogin(server.baseUrl, optedIn);
  quietDr = await registerAndLogin(server.baseUrl, notOptedIn);
  visitId = await completedVisit(dr, { name: 'Ada Quintero', mrn: 'MRN-20417', sex: 'female' }, 'Cough and fever');
  quietVisitId = await completedVisit(quietDr, { name: 'Ben Ortiz' }, 'Sore throat');
}, 900_000);
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

describe('patient name and MRN', () => {
  it('are kept in the context, listed, searchable only by their own provider, and editable after completion', async () => {
    const ctx = await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/context`);
    expect(ctx.json.context.patient).toMatchObject({ name: 'Ada Quintero', mrn: 'MRN-20417', sex: 'female' });
    const day = new Date().toISOString().slice(0, 10);
    const list = await call(dr, 'GET', `/api/v1/ambient/sessions?date=${day}`);
    expect(list.json.sessions).toEqual([expect.objectContaining({ ambient_session_id: visitId, patient_name: 'Ada Quintero', mrn: 'MRN-20417', note_status: 'draft', needs_review: true })]);

    for (const q of ['quintero', 'MRN-204', 'cough and']) {
      const r = await call(dr, 'GET', `/api/v1/ambient/sessions/search?q=${encodeURIComponent(q)}`);
      expect(r.json.sessions.map((s: any) => s.ambient_session_id), q).toEqual([visitId]);
    }
    // The note's text is searched too (issue 31 item 9), as it stands, case-insensitively: a word of the
    // note found nowhere in the name, MRN or complaint finds the visit, which says where it matched.
    const note = (await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/content`)).json.summary as Array<{ title: string; content: string }>;
    const word = note.flatMap((x) => x.content.match(/[A-Za-z]{7,}/g) ?? []).find((w) => !/quintero|cough|fever/i.test(w));
    expect(word, JSON.stringify(note)).toBeDefined();
    const inNote = await call(dr, 'GET', `/api/v1/ambient/sessions/search?q=${word!.toUpperCase()}`);
    expect(inNote.json.sessions).toEqual([
      expect.objectContaining({
        ambient_session_id: visitId,
        note_match: {
          section: note.find((x) => x.content.toLowerCase().includes(word!.toLowerCase()))!.title,
          loinc_code: expect.any(String),
          snippet: expect.stringMatching(new RegExp(word!, 'i')),
        },
      }),
    ]);
    expect((await call(dr, 'GET', '/api/v1/ambient/sessions/search?q=quintero')).json.sessions[0].note_match).toBeNull();
    // Another partner's provider never finds it through the note.
    expect((await call(quietDr, 'GET', `/api/v1/ambient/sessions/search?q=${word}`)).json.sessions.map((x: any) => x.ambient_session_id)).not.toContain(visitId);
    // Only section text is searched, not the note's JSON keys.
    expect((await call(dr, 'GET', '/api/v1/ambient/sessions/search?q=loinc_code')).json.sessions).toEqual([]);
    // LIKE wildcards are literal, and another partner's provider sees none of it.
    expect((await call(dr, 'GET', '/api/v1/ambient/sessions/search?q=%25%25')).json.sessions).toEqual([]);
    expect((await call(quietDr, 'GET', '/api/v1/ambient/sessions/search?q=Quintero')).json.sessions).toEqual([]);
    const short = await call(dr, 'GET', '/api/v1/ambient/sessions/search?q=a');
    expect(short.status).toBe(400);
    expect(short.json.message).toMatch(/q/);

    // The context is frozen once terminal, but the name and MRN only label the visit.
    expect((await call(dr, 'PATCH', `/api/v1/ambient/session/${visitId}/context`, { patient: { name: 'X' } })).status).toBe(409);
    const renamed = await call(dr, 'PATCH', `/api/v1/ambient/session/${visitId}/patient`, { name: 'Ada Q. Quintero', mrn: null });
    expect(renamed.json).toEqual({ name: 'Ada Q. Quintero', mrn: null });
    expect((await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/context`)).json.context.patient).toEqual({ name: 'Ada Q. Quintero', sex: 'female' });
    expect((await call(quietDr, 'PATCH', `/api/v1/ambient/session/${visitId}/patient`, { name: 'Y' })).status).toBe(404);
    const empty = await call(dr, 'PATCH', `/api/v1/ambient/session/${visitId}/patient`, { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toMatch(/name/);
    await call(dr, 'PATCH', `/api/v1/ambient/session/${visitId}/patient`, { mrn: 'MRN-20417' });
  });
});

describe('note sign-off', () => {
  it('signs, locks, amends with a reason, keeps every version, and reports note_status on the content', async () => {
    const content = await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/content`);
    expect(content.json).toMatchObject({ note_status: 'draft', signed_at: null });
    const section = content.json.summary[0] as { loinc_code: string; content: string };
    const put = (text: string) => call(dr, 'PUT', `/api/v1/ambient/session/${visitId}/content/sections/${section.loinc_code}`, { content: text });

    expect((await put(`${section.content} Edited once.`)).status).toBe(200);
    const review = await call(dr, 'GET', '/api/v1/ambient/sessions/needs-review');
    expect(review.json.sessions.map((s: any) => s.ambient_session_id)).toEqual([visitId]);
    expect((await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/amend`, { reason: 'too early' })).status).toBe(409);

    const signed = await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/sign`);
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({ note_status: 'signed', locked: true, signed_by: { name: 'Dr Test' } });
    expect(Date.parse(signed.json.signed_at)).toBeGreaterThan(Date.now() - 60_000);
    expect((await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/content`)).json).toMatchObject({ note_status: 'signed', signed_at: signed.json.signed_at });
    expect((await call(dr, 'GET', '/api/v1/ambient/sessions/needs-review')).json.sessions).toEqual([]);

    const locked = await put('rewritten after signing');
    expect(locked.status).toBe(409);
    expect(locked.json.message).toMatch(/signed; amend/);
    expect((await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/sign`)).status).toBe(409);

    const noReason = await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/amend`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.json.message).toMatch(/reason/);
    expect((await call(quietDr, 'POST', `/api/v1/ambient/session/${visitId}/note/amend`, { reason: 'not mine' })).status).toBe(404);
    const amended = await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/amend`, { reason: 'Dose corrected after pharmacy call' });
    expect(amended.json).toMatchObject({ note_status: 'amended', locked: false, signed_at: signed.json.signed_at });
    expect((await put(`${section.content} Amended text.`)).status).toBe(200);
    const resigned = await call(dr, 'POST', `/api/v1/ambient/session/${visitId}/note/sign`);
    expect(resigned.json).toMatchObject({ note_status: 'amended', locked: true });

    const history = await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/note/history`);
    expect(history.json.events.map((e: any) => e.type)).toEqual(['edit', 'sign', 'amend', 'edit', 'sign']);
    const [edit1, sign1, amend, edit2] = history.json.events;
    expect(edit1).toMatchObject({ loinc_code: section.loinc_code, before: section.content, after: `${section.content} Edited once.`, by: { name: 'Dr Test' } });
    // The signed version is kept as it was signed.
    expect(sign1.summary.find((s: any) => s.loinc_code === section.loinc_code).content).toBe(`${section.content} Edited once.`);
    expect(amend.reason).toBe('Dose corrected after pharmacy call');
    expect(edit2).toMatchObject({ before: `${section.content} Edited once.`, after: `${section.content} Amended text.` });
    expect(history.json.next_cursor).toBeNull();
    expect((await call(quietDr, 'GET', `/api/v1/ambient/session/${visitId}/note/history`)).status).toBe(404);

    // Paged (issue 26 item 2): at most limit events, and next_cursor walks the rest, newest first with order=desc.
    const h = `/api/v1/ambient/session/${visitId}/note/history`;
    const page1 = await call(dr, 'GET', `${h}?limit=2&order=desc`);
    expect(page1.json.events.map((e: any) => e.type)).toEqual(['sign', 'edit']);
    const page2 = await call(dr, 'GET', `${h}?limit=2&order=desc&cursor=${page1.json.next_cursor}`);
    expect(page2.json.events.map((e: any) => e.type)).toEqual(['amend', 'sign']);
    const page3 = await call(dr, 'GET', `${h}?limit=2&order=desc&cursor=${page2.json.next_cursor}`);
    expect(page3.json).toMatchObject({ events: [{ type: 'edit', after: `${section.content} Edited once.` }], next_cursor: null, locked: true });
    expect((await call(quietDr, 'GET', `${h}?limit=2&cursor=${page1.json.next_cursor}`)).status).toBe(404);
    for (const [q, field] of [['limit=0', 'limit'], ['limit=201', 'limit'], ['order=sideways', 'order'], ['cursor=forged', 'cursor']]) {
      const bad = await call(dr, 'GET', `${h}?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.json.message, q).toMatch(new RegExp(`\\b${field}: `));
    }
  });
});

describe('NOTE_SIGNED notification', () => {
  it('is delivered signed to an opted-in partner for each signature, and never to a partner that did not opt in', async () => {
    const got = await receiver.waitFor('/opted-in', 3); // SUCCESS, then two signatures
    const bodies = got.map((r) => JSON.parse(r.rawBody));
    // Deliveries run independently, so arrival order is not the signing order.
    const notes = bodies.filter((b) => b.status === 'NOTE_SIGNED').sort((a, b) => a.version - b.version);
    expect(notes.map((b) => [b.note_status, b.version])).toEqual([
      ['signed', 1],
      ['amended', 2],
    ]);
    expect(notes[0]).toMatchObject({ session_id: visitId, encounter_id: expect.any(String), signed_at: expect.any(String) });
    expect(notes[1]._links.visit_summary[0].href).toBe(`${server.baseUrl}/api/v1/ambient/session/${visitId}/visit-summary`);
    const req = got.find((r) => JSON.parse(r.rawBody).status === 'NOTE_SIGNED')!;
    expect(verifyWebhookSignature(optedIn.webhookSecret, String(req.headers['generated-at']), Buffer.from(req.rawBody), String(req.headers['x-api-key']))).toBe(true);
    // No PHI in the notification.
    expect(req.rawBody).not.toMatch(/Quintero|MRN-20417/);

    const signedQuiet = await call(quietDr, 'POST', `/api/v1/ambient/session/${quietVisitId}/note/sign`);
    expect(signedQuiet.json.note_status).toBe('signed');
    const deliveries = await (await adminFetch(server.baseUrl, `/api/admin/v1/webhook-deliveries?partner_id=${notOptedIn.partnerId}`)).json();
    expect(deliveries.deliveries.map((d: any) => d.event_type)).toEqual(['session.success']);
    expect(receiver.to('/spec-only').map((r) => JSON.parse(r.rawBody).status)).toEqual(['SUCCESS']);
  });

  it('is switched per partner through the admin API, which reports it', async () => {
    const before = await (await adminFetch(server.baseUrl, `/api/admin/v1/partners/${notOptedIn.partnerId}`)).json();
    expect(before.notify_note_signed).toBe(false);
    const patched = await adminFetch(server.baseUrl, `/api/admin/v1/partners/${notOptedIn.partnerId}`, { method: 'PATCH', body: JSON.stringify({ notify_note_signed: true }) });
    expect(patched.status).toBe(200);
    expect((await patched.json()).notify_note_signed).toBe(true);
    const bad = await adminFetch(server.baseUrl, `/api/admin/v1/partners/${notOptedIn.partnerId}`, { method: 'PATCH', body: JSON.stringify({ notify_note_signed: 'yes' }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/notify_note_signed/);
  });
});

describe('after-visit summary', () => {
  it('is built from the note and structured data in plain language, and only for the owner’s completed visit', async () => {
    const r = await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/visit-summary`);
    expect(r.status).toBe(200);
    const s = r.json;
    const sd = (await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/structured-data`)).json.structured_data;
    const orderDrugs = sd.orders.medication_orders.values.map((o: any) => o.drug_name.toLowerCase());
    for (const m of s.medicines) expect(orderDrugs).toContain(m.drug.toLowerCase());
    expect(s.about[0]).toBe('You came in for cough and fever.');
    expect(s.text).toContain('When to get help');
    expect(s.reading_grade).toBe(readingGrade([...s.about, ...s.plan, ...s.medicines.map((m: any) => m.text), ...(s.allergies ?? []), ...(s.tests ?? []), ...s.follow_up, ...s.get_help].join('\n')));
    expect(s.reading_grade).toBeLessThanOrEqual(8);
    expect((await call(quietDr, 'GET', `/api/v1/ambient/session/${visitId}/visit-summary`)).status).toBe(404);
    const fresh = await call(dr, 'POST', '/api/v1/ambient/session/create', {});
    const early = await call(dr, 'GET', `/api/v1/ambient/session/${fresh.json.ambient_session_id}/visit-summary`);
    expect(early.status).toBe(409);
    expect(early.json.message).toMatch(/created/);
  });

  it("names the clinic and its phone from the partner's settings (issue 29), set in the console's partner form", async () => {
    expect((await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/visit-summary`)).json.clinic).toBeNull();
    const bad = await adminFetch(server.baseUrl, `/api/admin/v1/partners/${optedIn.partnerId}`, { method: 'PATCH', body: JSON.stringify({ clinic: { name: '' } }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/clinic/);
    const set = await adminFetch(server.baseUrl, `/api/admin/v1/partners/${optedIn.partnerId}`, { method: 'PATCH', body: JSON.stringify({ clinic: { name: 'Riverside Family Clinic', phone: '555-0100' } }) });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { clinic: unknown }).clinic).toEqual({ name: 'Riverside Family Clinic', phone: '555-0100' });
    const s = (await call(dr, 'GET', `/api/v1/ambient/session/${visitId}/visit-summary`)).json;
    expect(s.clinic).toEqual({ name: 'Riverside Family Clinic', phone: '555-0100' });
    expect(s.text).toContain('Riverside Family Clinic\nPhone: 555-0100');
  });
});
