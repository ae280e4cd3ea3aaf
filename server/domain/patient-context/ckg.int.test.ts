import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { createTestPartner, registerAndLogin, type TestPartner, type TestProvider } from '../../test/partners';
import { signWebhook } from '../../webhooks/sign';
import { startTestReceiver, type TestReceiver } from '../../webhooks/testing/receiver';
import { testApi, type CallArgs, unchecked } from '../../test/api-client';
import type { RouteContract } from '@/lib/api/contract';
import { getCkgTransaction, ingestCkgBundle } from '@/lib/contracts/routes/ckg';
import { createSession, setSessionContext } from '@/lib/contracts/routes/sessions';
import { listDeliveries } from '@/lib/contracts/routes/webhooks';

const RX = 'http://www.nlm.nih.gov/research/umls/rxnorm';

const bundle = {
  resourceType: 'Bundle',
  type: 'collection',
  entry: [
    { resource: { resourceType: 'Patient', id: 'pat-1' } },
    {
      resource: {
        resourceType: 'MedicationRequest',
        id: 'mr-1',
        status: 'active',
        medicationCodeableConcept: { coding: [{ system: RX, code: '314076', display: 'lisinopril 10 MG Oral Tablet' }], text: 'Lisinopril 10 mg tablet' },
      },
    },
    {
      resource: {
        resourceType: 'Condition',
        id: 'c-1',
        code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I10', display: 'Essential (primary) hypertension' }] },
        clinicalStatus: { coding: [{ code: 'active' }] },
      },
    },
    { resource: { resourceType: 'AllergyIntolerance', id: 'a-1', code: { text: 'Penicillin' }, criticality: 'high' } },
  ],
};

async function call<C extends RouteContract>(server: TestServer, who: TestProvider, contract: C, ...input: CallArgs<C>) {
  const r = await testApi(server, who).call(contract, ...input);
  return { status: r.status, body: r.body };
}

async function transactionWhen(server: TestServer, who: TestProvider, id: string, done: (t: any) => boolean, limitMs = 45_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const t = await call(server, who, getCkgTransaction, { params: { transaction_id: id } });
    if (t.status === 200 && done(t.body)) return t.body;
    if (Date.now() > deadline) throw new Error(`transaction ${id} did not finish: ${JSON.stringify(t.body)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('CKG ingestion against the real server', () => {
  let server: TestServer;
  let receiver: TestReceiver;
  let partner: TestPartner;
  let dr: TestProvider;
  const hook = '/ckg-hook';

  beforeAll(async () => {
    receiver = await startTestReceiver();
    server = await startServer({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1' } });
    partner = await createTestPartner(server.baseUrl, { webhook_url: receiver.url(hook) });
    dr = await registerAndLogin(server.baseUrl, partner);
  });
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it('ingests a bundle: 202, COMPLETED, signed CKG webhook, and the context drives order validation', async () => {
    const patient = `MRN-${crypto.randomUUID().slice(0, 8)}`;
    const ingest = await call(server, dr, ingestCkgBundle, { body: unchecked({ emr_patient_id: patient, bundle }) });
    expect(ingest.status).toBe(202);
    expect(Object.keys(ingest.body)).toEqual(['transaction_id']);
    const txId = ingest.body.transaction_id as string;

    const tx = await transactionWhen(server, dr, txId, (t) => t.state === 'COMPLETED' || t.state === 'FAILED');
    expect(tx).toMatchObject({ transaction_id: txId, state: 'COMPLETED', emr_patient_id: patient });
    expect(tx.error).toBeUndefined();
    expect(Date.parse(tx.completed_at)).toBeGreaterThanOrEqual(Date.parse(tx.created_at));

    const [note] = (await receiver.waitFor(hook, 1)).filter((r) => JSON.parse(r.rawBody).transaction_id === txId);
    expect(JSON.parse(note!.rawBody)).toEqual({ state: 'COMPLETED', transaction_id: txId });
    const at = note!.headers['generated-at'] as string;
    expect(note!.headers['x-api-key']).toBe(signWebhook(partner.webhookSecret, at, note!.rawBody));

    // The ingested medication list is what the session context checks orders against.
    const session = await call(server, dr, createSession, { body: {} });
    expect(session.status).toBe(201);
    const ctx = { ambient_session_id: session.body.ambient_session_id };
    const bad = await call(server, dr, setSessionContext, { params: ctx, body: {
      patient: { emr_patient_id: patient },
      orders: { medication_orders: { values: [{ drug_name: 'atorvastatin', status: 'DISCONTINUED' }] } },
    } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^orders\.medication_orders\.values\[0\]: atorvastatin is not an active medication/);
    const ok = await call(server, dr, setSessionContext, { params: ctx, body: {
      patient: { emr_patient_id: patient },
      orders: { medication_orders: { values: [{ drug_name: 'lisinopril', status: 'DISCONTINUED' }] } },
    } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it('ends FAILED with an error naming the entry when a supported resource is unreadable, and says so in the webhook', async () => {
    const broken = { resourceType: 'Bundle', entry: [{ resource: { resourceType: 'MedicationStatement', id: 'ms-9', status: 'taking', medicationCodeableConcept: { text: 'x' } } }] };
    const ingest = await call(server, dr, ingestCkgBundle, { body: unchecked({ emr_patient_id: 'MRN-broken', bundle: broken }) });
    expect(ingest.status).toBe(202);
    const txId = ingest.body.transaction_id;
    const tx = await transactionWhen(server, dr, txId, (t) => t.state === 'FAILED' || t.state === 'COMPLETED');
    expect(tx.state).toBe('FAILED');
    expect(tx.error).toEqual({ code: 'INVALID_RESOURCE', message: expect.stringMatching(/^entry\[0\] \(MedicationStatement\/ms-9\): status: must be a MedicationStatement status/) });
    const deadline = Date.now() + 45_000;
    let payload: any;
    while (!payload) {
      payload = receiver.to(hook).map((r) => JSON.parse(r.rawBody)).find((p) => p.transaction_id === txId);
      if (!payload && Date.now() > deadline) throw new Error('no CKG webhook for the failed transaction');
      if (!payload) await new Promise((r) => setTimeout(r, 100));
    }
    expect(payload).toEqual({ state: 'FAILED', transaction_id: txId, error: tx.error });
  });

  it('refuses a body that is not a Bundle with 400 naming the field', async () => {
    const notBundle = await call(server, dr, ingestCkgBundle, { body: unchecked({ emr_patient_id: 'P', bundle: { resourceType: 'Patient', id: 'x' } }) });
    expect(notBundle.status).toBe(400);
    expect(notBundle.body.code).toBe(400);
    expect(notBundle.body.message).toMatch(/bundle\.resourceType/);
    const noPatient = await call(server, dr, ingestCkgBundle, { body: unchecked({ bundle }) });
    expect(noPatient.status).toBe(400);
    expect(noPatient.body.message).toMatch(/emr_patient_id/);
    const badEntry = await call(server, dr, ingestCkgBundle, { body: unchecked({ emr_patient_id: 'P', bundle: { resourceType: 'Bundle', entry: [{ resource: 42 }] } }) });
    expect(badEntry.status).toBe(400);
    expect(badEntry.body.message).toMatch(/bundle\.entry\[0\]\.resource|bundle\.entry\.0\.resource/);
  });

  it("scopes transactions to the caller's partner and requires a token", async () => {
    const ingest = await call(server, dr, ingestCkgBundle, { body: { emr_patient_id: 'MRN-scope', bundle: { resourceType: 'Bundle', entry: [] } } });
    const txId = ingest.body.transaction_id;
    const colleague = await registerAndLogin(server.baseUrl, partner);
    expect((await call(server, colleague, getCkgTransaction, { params: { transaction_id: txId } })).status).toBe(200);
    const outsider = await registerAndLogin(server.baseUrl, await createTestPartner(server.baseUrl));
    const foreign = await call(server, outsider, getCkgTransaction, { params: { transaction_id: txId } });
    expect(foreign).toMatchObject({ status: 404, body: { code: 404 } });
    expect((await call(server, dr, getCkgTransaction, { params: { transaction_id: crypto.randomUUID() } })).status).toBe(404);
    expect((await call(server, dr, getCkgTransaction, { params: { transaction_id: 'nope' } })).status).toBe(400);
    const anon = await testApi(server.baseUrl).send(getCkgTransaction, { params: { transaction_id: txId } });
    expect(anon.status).toBe(401);
  });

  it('refuses ingestion from a READONLY partner', async () => {
    const ro = await createTestPartner(server.baseUrl, { access_level: 'READONLY' });
    const reader = await registerAndLogin(server.baseUrl, ro);
    const r = await call(server, reader, ingestCkgBundle, { body: { emr_patient_id: 'P', bundle: { resourceType: 'Bundle' } } });
    expect(r.status).toBe(403);
  });

  it('records the CKG webhook as a delivery visible in the admin API', async () => {
    const res = await testApi(server.baseUrl, 'admin').send(listDeliveries, { query: { partner_id: partner.partnerId, event_type: 'ckg' } });
    const list = (await res.json()) as { deliveries: Array<{ event_key: string; status: string }> };
    expect(list.deliveries.length).toBeGreaterThanOrEqual(2);
    for (const d of list.deliveries) expect(d.event_key).toMatch(/^ckg:[0-9a-f-]{36}$/);
  });
});
