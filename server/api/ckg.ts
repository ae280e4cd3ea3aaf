import { z } from 'zod';
import { CkgIngestRequest, CkgIngestResponse, CkgTransaction } from '@/lib/contracts/ckg';
import { defineRoute, Reply } from '../http/route';
import { ingestCkgBundle } from '../domain/ckg/ingest-ckg-bundle';
import { getCkgTransaction } from '../domain/ckg/get-ckg-transaction';
import { errors } from './responses';

export const ckgRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/ckg/ingest',
    summary: "Ingest a patient's EMR data (FHIR R4 Bundle) into the clinical knowledge graph",
    description:
      'Accepted for asynchronous processing. Condition, MedicationRequest, MedicationStatement and AllergyIntolerance entries are read; other resource types are ignored. The bundle replaces the patient\'s previous context. Poll the transaction or wait for the CKG webhook (state COMPLETED, FAILED or ABORTED).',
    tags: ['CKG'],
    auth: 'service',
    write: true,
    body: CkgIngestRequest,
    status: 202,
    responses: { 202: { description: 'accepted', schema: CkgIngestResponse }, ...errors(400, 401, 403, 413) },
    handler: async ({ app, auth, body }) => new Reply(202, await ingestCkgBundle(app, auth, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/ckg/transactions/{transaction_id}',
    summary: 'Get the state of a CKG ingestion',
    tags: ['CKG'],
    auth: 'service',
    params: z.object({ transaction_id: z.uuid({ message: 'must be a UUID' }) }),
    responses: { 200: { description: 'transaction', schema: CkgTransaction }, ...errors(400, 401, 404) },
    handler: ({ app, auth, params }) => getCkgTransaction(app, auth.partnerId, params.transaction_id),
  }),
];
