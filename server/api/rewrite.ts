import { RewriteRequest, RewriteResponse } from '@/lib/contracts/sessions';
import { defineRoute } from '../http/route';
import { rewriteSelection } from '../domain/rewrite/rewrite-selection';
import { errors } from './responses';

export const rewriteRoutes = [
  defineRoute({
    method: 'POST',
    path: '/api/v1/content/rewrite',
    summary: 'Rewrite a selection of note text (CONCISE, VERBOSE or PATIENT_FRIENDLY)',
    description:
      'Returns the rewritten text and the offsets it occupies once written back in place of the selection. Reads no state, so READONLY partners may call it.',
    tags: ['Content'],
    auth: 'service',
    body: RewriteRequest,
    responses: { 200: { description: 'rewritten', schema: RewriteResponse }, ...errors(400, 401, 404, 413, 429) },
    handler: ({ app, auth, body, requestId }) => rewriteSelection(app, auth, body, requestId),
  }),
];
