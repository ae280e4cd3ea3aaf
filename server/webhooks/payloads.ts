import type {
  CkgPayload,
  SessionFailurePayload,
  SessionSuccessPayload,
  WebhookEventType,
  WebhookLink,
  WebhookLinkKey,
} from '@/lib/contracts/webhooks';

/** The session fields a notification is built from (a subset of the ambient_sessions row). */
export interface SessionForWebhook {
  id: string;
  encounterId: string;
  noteId?: string | null;
  emrEncounterId?: string | null;
  status: string;
  errorCode?: string | null;
  errorDetail?: string | null;
}

export const SKIPPED_ERROR_CODE = 'SKIPPED_INSUFFICIENT_AUDIO';
const SKIPPED_DETAIL = 'not enough audio was received or the transcript was empty; no note was generated';
const FAILED_ERROR_CODE = 'PROCESSING_FAILED';

const link = (base: string, path: string, name: string): WebhookLink => ({ method: 'GET', href: `${base}${path}`, name });

/** Links to this service's own read endpoints for the session and its encounter. */
export function sessionLinks(publicBaseUrl: string, sessionId: string, encounterId: string): Record<WebhookLinkKey, WebhookLink[]> {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const s = `/api/v1/ambient/session/${sessionId}`;
  const e = `/api/v1/ambient/encounter/${encounterId}`;
  return {
    contents: [link(base, `${s}/content`, 'session_content')],
    encounter_content: [link(base, `${e}/content`, 'encounter_content')],
    structured_data: [link(base, `${s}/structured-data`, 'session_structured_data')],
    encounter_structured_data: [link(base, `${e}/structured-data`, 'encounter_structured_data')],
    // Filled Embedded Form values live in structured_data.section_structured_values of the same documents.
    section_structured_data: [link(base, `${s}/structured-data`, 'section_structured_data')],
    encounter_section_structured_data: [link(base, `${e}/structured-data`, 'encounter_section_structured_data')],
    transcripts: [link(base, `${s}/transcript`, 'session_transcript')],
    status: [link(base, `${s}/status`, 'session_status')],
    fhir: [link(base, `${s}/fhir`, 'session_fhir'), link(base, `${e}/fhir`, 'encounter_fhir')],
  };
}

export function buildSessionSuccess(
  publicBaseUrl: string,
  session: SessionForWebhook,
  encounterSessionIds: string[],
  additionalInfo?: Record<string, unknown>,
): SessionSuccessPayload {
  const sessions = encounterSessionIds.includes(session.id) ? encounterSessionIds : [...encounterSessionIds, session.id];
  const info: Record<string, unknown> = { ...additionalInfo };
  if (session.noteId) info.note_id = session.noteId;
  if (session.emrEncounterId) info.emr_encounter_id = session.emrEncounterId;
  return {
    status: 'SUCCESS',
    session_id: session.id,
    encounter_id: session.encounterId,
    sessions,
    ...(Object.keys(info).length > 0 ? { additional_info: info } : {}),
    _links: sessionLinks(publicBaseUrl, session.id, session.encounterId),
  };
}

export function buildSessionFailure(session: SessionForWebhook): SessionFailurePayload {
  const skipped = session.status === 'skipped';
  return {
    status: 'FAILURE',
    session_id: session.id,
    encounter_id: session.encounterId,
    error_code: skipped ? SKIPPED_ERROR_CODE : session.errorCode || FAILED_ERROR_CODE,
    error_detail: session.errorDetail || (skipped ? SKIPPED_DETAIL : 'the session could not be processed'),
  };
}

/**
 * The notification for a session's terminal status: completed → SUCCESS, failed and skipped → FAILURE.
 * Aborted sessions were cancelled by the caller itself and non-terminal ones have no outcome: null.
 */
export function buildSessionNotification(
  publicBaseUrl: string,
  session: SessionForWebhook,
  encounterSessionIds: string[],
): { eventType: WebhookEventType; payload: SessionSuccessPayload | SessionFailurePayload } | null {
  if (session.status === 'completed') return { eventType: 'session.success', payload: buildSessionSuccess(publicBaseUrl, session, encounterSessionIds) };
  if (session.status === 'failed' || session.status === 'skipped') return { eventType: 'session.failure', payload: buildSessionFailure(session) };
  return null;
}

export function buildCkgPayload(transactionId: string, state: CkgPayload['state'], error?: { code: string; message: string } | null): CkgPayload {
  return { state, transaction_id: transactionId, ...(error ? { error: { code: error.code, message: error.message } } : {}) };
}
