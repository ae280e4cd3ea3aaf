import { defineContract } from '@/lib/api/contract';
import { SessionIdParams } from '@/lib/contracts/sessions';
import { PreChartResponse, SetPrevisitNoteRequest, SetVisitNoteStyleRequest, VisitNoteStyle } from '@/lib/contracts/note-style';

const SESSION_PATH = '/api/v1/ambient/session/{ambient_session_id}';
const tags = ['Note styles and pre-charting'];

export const getVisitNoteStyle = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/note-style`,
  summary: "The visit's note style",
  description: "The style chosen for the visit, and the one the note is written in (the visit's, else the clinician's default).",
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'the style', schema: VisitNoteStyle } },
  errors: ['not_found'],
});

export const setVisitNoteStyle = defineContract({
  method: 'PUT',
  path: `${SESSION_PATH}/note-style`,
  summary: "Choose the visit's note style; a finished note is written again in it",
  description:
    'A built-in style (SOAP, APSO, HP, PROGRESS) or template:<id> of one of your templates. On a finished visit the note is written again ' +
    'from the stored transcript, without re-recording; edits to the note are replaced. A signed note refuses (409) until amended.',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: SetVisitNoteStyleRequest,
  responses: { 200: { description: 'the stored style', schema: VisitNoteStyle } },
  errors: ['not_found', 'conflict'],
});

export const getPreChart = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/pre-chart`,
  summary: "The patient's context before the visit",
  description:
    "Problems, medications and allergies from the session context and the patient's ingested EMR data (CKG), the plan of this patient's last " +
    'finished visit with this clinician, and the pre-visit note.',
  tags,
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'the pre-chart', schema: PreChartResponse } },
  errors: ['not_found'],
});

export const setPrevisitNote = defineContract({
  method: 'PUT',
  path: `${SESSION_PATH}/pre-chart/note`,
  summary: 'Write the pre-visit note',
  description:
    'One line the note engine may use as context. The note shows it as a pre-visit note marked as template text, never as said in the visit. ' +
    'null or an empty line removes it. A finished visit refuses (409).',
  tags,
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: SetPrevisitNoteRequest,
  responses: { 200: { description: 'the pre-chart', schema: PreChartResponse } },
  errors: ['not_found', 'conflict'],
});
