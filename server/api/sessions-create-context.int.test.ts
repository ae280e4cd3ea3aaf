import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../test/partners';
import { call, createSession, UUID } from '../test/session-api';
import { createSession as createSessionRoute, getSessionContext, getSessionStatus, patchSessionContext, setSessionContext, setSessionMetadata } from '@/lib/contracts/routes/sessions';
import { getCkgTransaction, ingestCkgBundle } from '@/lib/contracts/routes/ckg';
import { unchecked } from '../test/api-client';

describe('session API: creating sessions and their context', () => {
  let server: TestServer;
  let partner: TestPartner;
  let dr: TestProvider;
  let outsider: TestProvider;

  beforeAll(async () => {
    server = await startServer();
    partner = await createTestPartner(server.baseUrl);
    dr = await registerAndLogin(server.baseUrl, partner);
    outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates sessions: 201 shape, caller ids, encounter grouping, duplicate 409', async () => {
    const a = await createSession(server, dr);
    expect(a.ambient_session_id).toMatch(UUID);
    expect(a.note_id).toMatch(UUID);
    expect(a.encounter_id).toMatch(UUID);
    expect(new Set([a.ambient_session_id, a.note_id, a.encounter_id]).size).toBe(3);

    const chosen = crypto.randomUUID();
    const b = await createSession(server, dr, { ambient_session_id: chosen, encounter_id: a.encounter_id, emr_encounter_id: 'ENC-77', multilingual: true });
    expect(b.ambient_session_id).toBe(chosen);
    expect(b.encounter_id).toBe(a.encounter_id);

    const legacyGroup = crypto.randomUUID();
    const c = await createSession(server, dr, { session_group_id: legacyGroup });
    expect(c.encounter_id).toBe(legacyGroup);

    const dup = await call(server, dr, createSessionRoute, { body: { ambient_session_id: chosen } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ code: 409, message: expect.stringMatching(/already exists/) });

    // Another partner reusing the id learns only that it is taken.
    const foreign = await call(server, outsider, createSessionRoute, { body: { ambient_session_id: chosen } });
    expect(foreign.status).toBe(409);
    expect(foreign.body.message).toBe(dup.body.message);

    const bad = await call(server, dr, createSessionRoute, { body: { encounter_id: 'visit-1' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 400, message: 'encounter_id: must be a UUID' });

    const st = await call(server, dr, getSessionStatus, { params: { ambient_session_id: chosen } });
    expect(st).toMatchObject({ status: 200, body: { status: 'created' } });
  });

  it('replaces and merges context, naming bad fields', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const initial = {
      patient: { dob: '1961-07-04', sex: 'female' },
      provider: { specialty: 'INTERNAL_MEDICINE', provider_role: 'ATTENDING' },
      visit: { chief_complaint: 'shortness of breath', visit_type: 'ESTABLISHED_PATIENT', encounter_type: 'AMBULATORY' },
      sections: [{ loinc: '10164-2' }, { loinc: '51847-2', precharted_content: [{ type: 'string', content: 'COPD, on tiotropium.' }] }],
      diagnoses: { values: [{ codes: [{ code: 'J44.9', description: 'COPD', type: 'ICD10' }] }] },
    };
    const post = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: initial });
    expect(post.status, JSON.stringify(post.body)).toBe(200);
    expect(post.body).toEqual({ context: initial });

    const patch = await call(server, dr, patchSessionContext, { params: { ambient_session_id: id }, body: {
      patient: { sex: 'other' },
      visit: { chief_complaint: 'cough' },
      sections: [{ loinc: '10187-3' }],
      diagnoses: null,
    } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    expect(patch.body.context).toEqual({
      patient: { dob: '1961-07-04', sex: 'other' },
      provider: initial.provider,
      visit: { chief_complaint: 'cough', visit_type: 'ESTABLISHED_PATIENT', encounter_type: 'AMBULATORY' },
      sections: [{ loinc: '10187-3' }],
    });
    expect((await call(server, dr, getSessionContext, { params: { ambient_session_id: id } })).body).toEqual(patch.body);

    // POST replaces: members not sent are gone.
    const replaced = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: { visit: { chief_complaint: 'wheeze' } } });
    expect(replaced.body).toEqual({ context: { visit: { chief_complaint: 'wheeze' } } });

    const snomed = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: { diagnoses: { values: [{ codes: [{ code: '13645005', description: 'COPD', type: 'SNOMED' }] }] } } });
    expect(snomed.status).toBe(400);
    expect(snomed.body.message).toMatch(/^diagnoses\.values\[0\]\.codes\[0\]\.type: SNOMED is no longer supported/);

    const loinc = await call(server, dr, patchSessionContext, { params: { ambient_session_id: id }, body: { sections: [{ loinc: '99999-9' }] } });
    expect(loinc.status).toBe(400);
    expect(loinc.body.message).toMatch(/^sections\[0\]\.loinc: not a supported LOINC section code/);

    const long = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: { visit: { chief_complaint: 'x'.repeat(256) } } });
    expect(long).toMatchObject({ status: 400, body: { code: 400, message: 'visit.chief_complaint: must be at most 255 characters' } });

    const form = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: {
      sections: [{ loinc: '10190-7', precharted_content: [{ type: 'structured', template_id: 'phq-2', values: [{ id: 'interest', value: 'Always' }] }] }],
    } });
    expect(form.status).toBe(400);
    expect(form.body.message).toMatch(/^sections\[0\]\.precharted_content\[0\]\.values\[0\]\.value: must be one of/);

    const noEmr = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: {
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }] } },
    } });
    expect(noEmr.status).toBe(400);
    expect(noEmr.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: lisinopril cannot be DISCONTINUED/);

    // Failed writes left the context as it was.
    expect((await call(server, dr, getSessionContext, { params: { ambient_session_id: id } })).body).toEqual({ context: { visit: { chief_complaint: 'wheeze' } } });
  });

  it('maps deprecated metadata onto the context', async () => {
    const { ambient_session_id: id } = await createSession(server, dr);
    const r = await call(server, dr, setSessionMetadata, {
      params: { ambient_session_id: id },
      body: {
        note_sections: [{ title: 'History of Present Illness', description: 'what happened' }, { title: 'Assessment & Plan' }, { title: 'Doodles' }],
        patient_dob: '1990-05-06',
        patient_sex: 'male',
        provider_specialty: 'CARDIOLOGY',
      },
    });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    const ctx = await call(server, dr, getSessionContext, { params: { ambient_session_id: id } });
    expect(ctx.body.context).toEqual({
      patient: { dob: '1990-05-06', sex: 'male' },
      provider: { specialty: 'CARDIOLOGY' },
      sections: [{ loinc: '10164-2' }, { loinc: '51847-2' }],
    });
    const bad = await call(server, dr, setSessionMetadata, { params: { ambient_session_id: id }, body: { patient_dob: '1990-02-30' } });
    expect(bad).toMatchObject({ status: 400, body: { message: 'patient_dob: must be a valid date written YYYY-MM-DD' } });
  });

  it("checks DISCONTINUED and REFILLED orders against the medications ingested through CKG", async () => {
    const mrn = `MRN-${crypto.randomUUID().slice(0, 8)}`;
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'MedicationRequest',
            id: 'mr-1',
            status: 'active',
            intent: 'order',
            medicationCodeableConcept: { text: 'Lisinopril 10 MG Oral Tablet', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '314076', display: 'Lisinopril 10 MG Oral Tablet' }] },
            subject: { reference: 'Patient/p1' },
          },
        },
        {
          resource: {
            resourceType: 'MedicationRequest',
            id: 'mr-2',
            status: 'stopped',
            intent: 'order',
            medicationCodeableConcept: { text: 'Simvastatin 20 MG Oral Tablet', coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '198211' }] },
            subject: { reference: 'Patient/p1' },
          },
        },
      ],
    };
    const ingest = await call(server, dr, ingestCkgBundle, { body: unchecked({ emr_patient_id: mrn, bundle }) });
    expect(ingest.status, JSON.stringify(ingest.body)).toBe(202);
    let state = '';
    while (!['COMPLETED', 'FAILED', 'ABORTED'].includes(state)) {
      await new Promise((r) => setTimeout(r, 100));
      state = (await call(server, dr, getCkgTransaction, { params: { transaction_id: ingest.body.transaction_id } })).body.state;
    }
    expect(state).toBe('COMPLETED');

    const { ambient_session_id: id } = await createSession(server, dr);
    const order = (drug_name: string, status: string) => ({ drug_name, status });
    const withOrders = (...values: unknown[]) => ({ patient: { emr_patient_id: mrn }, orders: { medication_orders: { values } } });

    const notOn = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: withOrders(order('amoxicillin', 'NEW'), order('metformin', 'DISCONTINUED')) });
    expect(notOn).toMatchObject({
      status: 400,
      body: { code: 400, message: 'orders.medication_orders.values[1]: metformin is not an active medication for this patient, so it cannot be DISCONTINUED' },
    });
    const stopped = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: withOrders(order('simvastatin', 'REFILLED')) });
    expect(stopped.status).toBe(400);
    expect(stopped.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: simvastatin is not an active medication/);

    const ok = await call(server, dr, setSessionContext, { params: { ambient_session_id: id }, body: withOrders(order('Lisinopril', 'REFILLED'), { ...order('Zestril', 'DISCONTINUED'), medication_code: { code: '314076', type: 'RXCUI' } }) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.context.orders.medication_orders.values.map((o: any) => o.status)).toEqual(['REFILLED', 'DISCONTINUED']);

    // A PATCH that changes the patient re-checks the stored orders against the new patient's list.
    const moved = await call(server, dr, patchSessionContext, { params: { ambient_session_id: id }, body: { patient: { emr_patient_id: 'MRN-nobody' } } });
    expect(moved.status).toBe(400);
    expect(moved.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: Lisinopril cannot be REFILLED because no EMR medication list is known/);
  });

  it('validates path parameters', async () => {
    const r = await call(server, dr, getSessionStatus, { params: { ambient_session_id: 'not-a-uuid' } });
    expect(r).toMatchObject({ status: 400, body: { code: 400, message: expect.stringMatching(/ambient_session_id/) } });
  });
});
