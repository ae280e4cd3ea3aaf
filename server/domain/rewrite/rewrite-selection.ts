import { and, eq } from 'drizzle-orm';
import { apiError, isApiError, notFound } from '@/lib/errors';
import type { RewriteRequest, RewriteResponse } from '@/lib/contracts/sessions';
import type { AppContext } from '../../context';
import { tenantDb } from '../../db';
import { ambientSessions } from '../../db/schema';
import type { ServicePrincipal } from '../../auth/authenticate-service';

/**
 * Rewrites a selection of note text. The returned offsets are where the rewritten text sits once it
 * replaces the selection: the start is unchanged and the end moves by the change in length.
 */
export async function rewriteSelection(app: AppContext, auth: ServicePrincipal, body: RewriteRequest, requestId: string): Promise<RewriteResponse> {
  if (body.ambient_session_id) {
    const owned = await tenantDb(app, auth).select(ambientSessions, { id: ambientSessions.id }, eq(ambientSessions.id, body.ambient_session_id))
      .limit(1);
    if (owned.length === 0) throw notFound(`ambient session ${body.ambient_session_id} not found`);
  }
  let rewritten: string;
  try {
    rewritten = await app.services.notes.get().rewrite({
      selectedText: body.selected_text,
      contextBefore: body.context_before,
      contextAfter: body.context_after,
      instruction: body.instruction,
      loincCode: body.loinc_code,
    });
  } catch (err) {
    if (isApiError(err)) throw err;
    // The engine may be a remote model: its failure is the service's, not the caller's. No text is logged.
    app.log.warn({ requestId, engine: app.services.notes.get().name, err: (err as Error)?.message }, 'rewrite engine failed');
    throw apiError('unavailable', 'the rewrite engine is unavailable; retry later', { 'retry-after': '5' });
  }
  return {
    rewritten_text: rewritten,
    selection_start: body.selection_start,
    selection_end: body.selection_start + rewritten.length,
    request_id: requestId,
  };
}
