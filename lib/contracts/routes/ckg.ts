import { defineContract } from '@/lib/api/contract';
import { z } from 'zod';
import { CkgIngestRequest, CkgIngestResponse, CkgTransaction } from '@/lib/contracts/ckg';

export const ingestCkgBundle = defineContract({
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
  responses: { 202: { description: 'accepted', schema: CkgIngestResponse } },
});

export const getCkgTransaction = defineContract({
  method: 'GET',
  path: '/api/v1/ckg/transactions/{transaction_id}',
  summary: 'Get the state of a CKG ingestion',
  tags: ['CKG'],
  auth: 'service',
  params: z.object({ transaction_id: z.uuid({ message: 'must be a UUID' }) }),
  responses: { 200: { description: 'transaction', schema: CkgTransaction } },
  errors: ['not_found'],
});
