import { RE2JS } from 're2js';

/**
 * provider_id patterns are partner-supplied and run on unauthenticated logins, so they use RE2 (re2js):
 * matching is linear in the input whatever the pattern, where a backtracking engine let `(a+)+` stall
 * the event loop for seconds (issue #12). RE2 has no backreferences or lookaround; such patterns are
 * refused when saved.
 */
export const PROVIDER_ID_PATTERN_MAX_LENGTH = 256;

function compile(pattern: string): RE2JS {
  return RE2JS.compile(`(?:${pattern})`);
}

/** Why a pattern cannot be saved, or null. */
export function providerIdPatternProblem(pattern: string): string | null {
  if (pattern.length > PROVIDER_ID_PATTERN_MAX_LENGTH) return `must be at most ${PROVIDER_ID_PATTERN_MAX_LENGTH} characters`;
  try {
    compile(pattern);
    return null;
  } catch (err) {
    const detail = (err as Error).message.replace(/^error parsing regexp: /, '');
    return `must be a valid RE2 regular expression (no backreferences or lookaround): ${detail}`;
  }
}

/** Whole-string match; a pattern that does not compile (saved before RE2) matches nothing. */
export function providerIdMatches(pattern: string, providerId: string): boolean {
  try {
    return compile(pattern).matches(providerId);
  } catch {
    return false;
  }
}
