/**
 * The clinician's edits of a note's structured data (issue 29 item 5), their history, and the code searches
 * the editor uses. Each kind has its own add / change / remove routes so that each body has one schema.
 */
import { defineContract } from '@/lib/api/contract';
import type { z } from 'zod';
import { SessionIdParams } from '@/lib/contracts/sessions';
import {
  AllergyEdit,
  AllergySubstanceSearchResponse,
  CodeSearchQuery,
  DiagnosisEdit,
  Icd10SearchResponse,
  MedicationOrderEdit,
  OrderableSearchResponse,
  RxNormSearchResponse,
  ServiceOrderEdit,
  StructuredDataEditResponse,
  StructuredDataHistoryResponse,
  StructuredItemParams,
  StructuredItemQuery,
} from '@/lib/contracts/structured-data-edits';

const SD_PATH = '/api/v1/ambient/session/{ambient_session_id}/structured-data';
const tags = ['Structured data'];
const STALE =
  ' Addressed by position, the change carries `?version=` (the `structured_data_version` of the content, the structured data or the last edit answer): 409 naming `version` when the structured data changed since, and nothing is changed.';
const LOCK =
  'The change replaces the stored structured data (content, structured-data, FHIR, visit summary and encounter endpoints all answer it) and is kept in the history with who, when, before and after. ' +
  '409 while the note is signed: amend it first. Another tenant\'s session is 404.';

function editRoutes<const B extends z.ZodType>(segment: string, what: string, body: B) {
  return {
    add: defineContract({
      tags,
      auth: 'service',
      write: true,
      body,
      errors: ['not_found', 'conflict'],
      method: 'POST',
      path: `${SD_PATH}/${segment}`,
      summary: `Add a ${what} to the note's structured data`,
      description: LOCK,
      params: SessionIdParams,
      status: 201,
      responses: { 201: { description: 'the structured data with the item added', schema: StructuredDataEditResponse } },
    }),
    update: defineContract({
      tags,
      auth: 'service',
      write: true,
      body,
      errors: ['not_found', 'conflict'],
      method: 'PUT',
      path: `${SD_PATH}/${segment}/{position}`,
      summary: `Change the ${what} at a position of its list`,
      description: `${LOCK}${STALE} A position past the end of the list is 404.`,
      params: StructuredItemParams,
      query: StructuredItemQuery,
      responses: { 200: { description: 'the structured data with the item changed', schema: StructuredDataEditResponse } },
    }),
  };
}

function removeRoute(segment: string, what: string) {
  return defineContract({
    method: 'DELETE',
    path: `${SD_PATH}/${segment}/{position}`,
    summary: `Remove the ${what} at a position of its list`,
    description: `${LOCK}${STALE} A position past the end of the list is 404.`,
    tags,
    auth: 'service',
    write: true,
    params: StructuredItemParams,
    query: StructuredItemQuery,
    responses: { 200: { description: 'the structured data without the item', schema: StructuredDataEditResponse } },
    errors: ['not_found', 'conflict'],
  });
}

const dx = editRoutes('diagnoses', 'diagnosis (ICD-10-CM)', DiagnosisEdit);
export const addDiagnosis = dx.add;
export const updateDiagnosis = dx.update;
export const removeDiagnosis = removeRoute('diagnoses', 'diagnosis');

const rx = editRoutes('medication-orders', 'medication order (RxNorm)', MedicationOrderEdit);
export const addMedicationOrder = rx.add;
export const updateMedicationOrder = rx.update;
export const removeMedicationOrder = removeRoute('medication-orders', 'medication order');

const al = editRoutes('allergies', 'allergy', AllergyEdit);
export const addAllergy = al.add;
export const updateAllergy = al.update;
export const removeAllergy = removeRoute('allergies', 'allergy');

const so = editRoutes('service-orders', 'lab or imaging order (LOINC)', ServiceOrderEdit);
export const addServiceOrder = so.add;
export const updateServiceOrder = so.update;
export const removeServiceOrder = removeRoute('service-orders', 'lab or imaging order');

export const getStructuredDataHistory = defineContract({
  method: 'GET',
  path: `${SD_PATH}/history`,
  summary: "The clinician's changes of the note's structured data, newest first",
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'changes', schema: StructuredDataHistoryResponse } },
  errors: ['not_found'],
});

function searchRoute<const S extends z.ZodType>(segment: string, summary: string, schema: S) {
  return defineContract({
    method: 'GET',
    path: `/api/v1/codes/${segment}`,
    summary,
    tags,
    auth: 'service',
    query: CodeSearchQuery,
    responses: { 200: { description: 'matches, best first (limit 10 unless given)', schema } },
  });
}

export const searchIcd10 = searchRoute('icd10', 'Search ICD-10-CM by code or description words', Icd10SearchResponse);
export const searchRxNorm = searchRoute('rxnorm', 'Search RxNorm ingredients and clinical drugs by name', RxNormSearchResponse);
export const searchAllergySubstances = searchRoute('allergy-substances', 'Search allergy substances: drug classes and RxNorm ingredients', AllergySubstanceSearchResponse);
export const searchOrderables = searchRoute('orderables', 'Search the curated lab and imaging orderables (LOINC)', OrderableSearchResponse);
