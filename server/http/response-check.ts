import { contractErrors, type RouteContract } from '@/lib/api/contract';
import { ERRORS } from '@/lib/errors';
import { zodMessage } from './zod-message';

/** An answer's body as the check sees it: JSON text, none at all, or bytes it does not read (a stream, audio). */
export type CheckedBody = { json: string } | 'none' | 'unread';

/**
 * Why an answer breaks its route contract, or null when it keeps it. Under CHECK_RESPONSES (the test harness
 * sets it) the route runner answers 500 with this reason instead, so a test that reaches an undeclared status
 * or a body its schema refuses fails, naming the route: the contracts' `responses` and `errors` lists are
 * checked by every integration test that calls the route.
 *
 * Always allowed: 500 (an unexpected failure, which the test sees anyway) and 400 (the runner refuses an
 * unparsable request target or NUL characters in a query string on any route, inputs declared or not).
 */
export function contractViolation(def: RouteContract, status: number, body: CheckedBody): string | null {
  if (status === 500 || status === 400) return null;
  const spec = def.responses[status];
  if (spec) {
    if (!spec.schema || body === 'unread') return null;
    if (body === 'none') return `the ${status} answer has no body; its schema wants one`;
    let value: unknown;
    try {
      value = JSON.parse(body.json);
    } catch {
      return `the ${status} body is not JSON`;
    }
    const parsed = spec.schema.safeParse(value);
    return parsed.success ? null : `the ${status} body does not match its schema: ${zodMessage(parsed.error, 'body')}`;
  }
  const errors: number[] = contractErrors(def).map((name) => ERRORS[name].status);
  if (errors.includes(status)) return null;
  const responses = Object.keys(def.responses).join(', ') || 'none';
  return `status ${status} is not declared (responses: ${responses}; errors: ${errors.join(', ') || 'none'})`;
}
