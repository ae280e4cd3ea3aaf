/**
 * Clinician workflow additions to the v1 API (issue 17): visit search and the "needs review" list,
 * note sign-off (sign, amend with a reason, history) and the patient's after-visit summary.
 */
import { defineContract } from '@/lib/api/contract';
import { SessionListResponse, SessionSearchQuery } from '@/lib/contracts/clinician';
import {
  AmendNoteRequest,
  NOTE_HISTORY_DEFAULT_LIMIT,
  NOTE_HISTORY_MAX_LIMIT,
  NOTE_HISTORY_PAGE_CHARS,
  NoteHistoryQuery,
  NoteHistoryResponse,
  NoteSignoffState,
} from '@/lib/contracts/note-signoff';
import { SessionIdParams } from '@/lib/contracts/sessions';
import { NoteReviewResponse, SignNoteRequest } from '@/lib/contracts/note-review';
import { VisitSummaryResponse } from '@/lib/contracts/visit-summary';
import { PatchPatientIdentityRequest, PatientIdentityResponse } from '@/lib/contracts/patient-identity';

const SESSION_PATH = '/api/v1/ambient/session/{ambient_session_id}';

export const updatePatientIdentity = defineContract({
  method: 'PATCH',
  path: `${SESSION_PATH}/patient`,
  summary: "Set or clear the patient's name and MRN on a visit, in any state",
  description:
    'Writes context.patient.name and context.patient.mrn; null removes one. Unlike the context routes it works after the session is terminal, since these only label the visit. Both are PHI: never logged.',
  tags: ['Sessions'],
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: PatchPatientIdentityRequest,
  responses: { 200: { description: "the visit's patient name and MRN", schema: PatientIdentityResponse } },
  errors: ['not_found'],
});

export const searchSessions = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/sessions/search',
  summary: "Search the provider's own visits by patient name, MRN, chief complaint or note text",
  description:
    'Case-insensitive substring match on any day, newest first, at most 100. A visit found in its note carries note_match: the first section containing the text and a snippet around it.',
  tags: ['Sessions'],
  auth: 'service',
  query: SessionSearchQuery,
  responses: { 200: { description: 'matching sessions', schema: SessionListResponse } },
  errors: ['forbidden'],
});

export const listNeedsReview = defineContract({
  method: 'GET',
  path: '/api/v1/ambient/sessions/needs-review',
  summary: "The provider's completed visits whose note is not signed, on any day",
  tags: ['Sessions'],
  auth: 'service',
  responses: { 200: { description: 'sessions', schema: SessionListResponse } },
  errors: ['forbidden'],
});

export const signNote = defineContract({
  method: 'POST',
  path: `${SESSION_PATH}/note/sign`,
  summary: 'Sign the note: records the signer and time and locks the sections',
  description:
    'A first signature sets note_status signed; a signature after an amendment keeps amended. Partners that opted in (notify_note_signed) receive a NOTE_SIGNED webhook. 409 when already signed or the visit is not completed. ' +
    'The body is optional. With review (the outcome of GET note/review: every listed item with RESOLVED or ACKNOWLEDGED, and attested: true) the review is checked against the note as it stands (400 naming the field when an item has no decision) and kept in the note history and the NOTE_SIGNED payload.',
  tags: ['Sessions'],
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: SignNoteRequest,
  optionalBody: true,
  responses: { 200: { description: 'the sign-off state', schema: NoteSignoffState } },
  errors: ['not_found', 'conflict'],
});

export const getNoteReview = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/note/review`,
  summary: 'What needs a decision before signing, and the attestation to confirm',
  description:
    'Lists low-confidence spans left out of the note, facts removed as not found in the visit, note text that contradicts a coded order, sentences and coded items no transcript line supports, coded medication orders whose dose or frequency is implausible for the drug (IMPLAUSIBLE_DOSE), stretches of the visit no recording holds (NOT_RECORDED), and sections edited since generation. ' +
    'Send each item back with a decision in the sign body. 409 until the visit is completed.',
  tags: ['Sessions'],
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'the review', schema: NoteReviewResponse } },
  errors: ['not_found', 'conflict'],
});

export const amendNote = defineContract({
  method: 'POST',
  path: `${SESSION_PATH}/note/amend`,
  summary: 'Reopen a signed note for changes, with a required reason',
  description: 'The signed version stays in the history; note_status becomes amended until and after the next signature.',
  tags: ['Sessions'],
  auth: 'service',
  write: true,
  params: SessionIdParams,
  body: AmendNoteRequest,
  responses: { 200: { description: 'the sign-off state', schema: NoteSignoffState } },
  errors: ['not_found', 'conflict'],
});

export const getNoteHistory = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/note/history`,
  summary: 'Every section edit (who, when, before, after), signature (with the signed note) and amendment, in pages',
  description:
    `Oldest first, or newest first with order=desc. Pages hold at most limit events (default ${NOTE_HISTORY_DEFAULT_LIMIT}, at most ${NOTE_HISTORY_MAX_LIMIT}) and stop early once their text passes ${NOTE_HISTORY_PAGE_CHARS} characters; ` +
    'follow next_cursor until it is null. Without limit or cursor the answer is the first page, which for the usual note is its whole history, as before paging. ' +
    "Edits of one section by one provider within a few minutes of each other are one version (the burst's first before, its last after, the time of its last edit), and each section keeps its newest versions (README, Security); every signature (with the note as signed), every amendment and the section versions a signature covered are always kept.",
  tags: ['Sessions'],
  auth: 'service',
  params: SessionIdParams,
  query: NoteHistoryQuery,
  responses: { 200: { description: 'one page of the history', schema: NoteHistoryResponse } },
  errors: ['not_found'],
});

export const getVisitSummary = defineContract({
  method: 'GET',
  path: `${SESSION_PATH}/visit-summary`,
  summary: "After-visit summary for the patient, in plain language, from the note and its structured data",
  tags: ['Sessions'],
  auth: 'service',
  params: SessionIdParams,
  responses: { 200: { description: 'the summary', schema: VisitSummaryResponse } },
  errors: ['not_found', 'conflict'],
});
