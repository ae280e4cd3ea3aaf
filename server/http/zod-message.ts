import type { z } from 'zod';

/** One readable sentence naming the first offending field, e.g. `visit.chief_complaint: too long`. */
export function zodMessage(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `invalid ${where}`;
  const field = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
  const label = field ? `${where === 'body' ? '' : `${where} `}${field}` : where;
  let detail = issue.message;
  if (issue.code === 'invalid_type' && /received undefined/i.test(detail)) detail = 'is required';
  return `${label}: ${detail}`.slice(0, 500);
}
