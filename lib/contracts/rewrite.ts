/** Rewriting a selection of note text: the request (with its offsets checked) and the answer. */
import { z } from 'zod';
import { text, Uuid } from './common';
import { LoincCode } from '@/lib/info';

// ---------------------------------------------------------------------------------------------
// Rewrite
// ---------------------------------------------------------------------------------------------

export const RewriteInstruction = z.enum(['CONCISE', 'VERBOSE', 'PATIENT_FRIENDLY'], {
  error: 'must be one of CONCISE, VERBOSE, PATIENT_FRIENDLY',
});

const offset = z.number().int('must be an integer').min(0, 'must not be negative');

export const RewriteRequest = z
  .object({
    selected_text: z.string().min(1, 'must not be empty').max(10_000, 'must be at most 10000 characters'),
    context_before: text(20_000).optional(),
    context_after: text(20_000).optional(),
    selection_start: offset,
    selection_end: offset,
    instruction: RewriteInstruction,
    ambient_session_id: Uuid.optional(),
    loinc_code: LoincCode.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.selection_end < b.selection_start) {
      ctx.addIssue({ code: 'custom', path: ['selection_end'], message: 'must not be before selection_start' });
    } else if (b.selection_end - b.selection_start !== b.selected_text.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['selection_end'],
        message: `selection_end - selection_start (${b.selection_end - b.selection_start}) must equal the length of selected_text (${b.selected_text.length})`,
      });
    }
  })
  .meta({ id: 'RewriteRequest' });
export type RewriteRequest = z.infer<typeof RewriteRequest>;

export const RewriteResponse = z
  .object({ rewritten_text: z.string(), selection_start: z.number().int(), selection_end: z.number().int(), request_id: z.string() })
  .meta({ id: 'RewriteResponse' });
export type RewriteResponse = z.infer<typeof RewriteResponse>;
