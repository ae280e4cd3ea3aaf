import { defineContract } from '@/lib/api/contract';
import { RewriteRequest, RewriteResponse } from '@/lib/contracts/rewrite';

export const rewriteSelection = defineContract({
  method: 'POST',
  path: '/api/v1/content/rewrite',
  summary: 'Rewrite a selection of note text (CONCISE, VERBOSE or PATIENT_FRIENDLY)',
  description:
    'Returns the rewritten text and the offsets it occupies once written back in place of the selection. Reads no state, so READONLY partners may call it.',
  tags: ['Content'],
  auth: 'service',
  body: RewriteRequest,
  responses: { 200: { description: 'rewritten', schema: RewriteResponse } },
  errors: ['not_found', 'too_many_requests', 'unavailable'],
});
