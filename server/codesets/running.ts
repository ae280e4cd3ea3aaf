import { getAppContext } from '../context';
import type { CodeIndex } from './index';

export const CODE_INDEX_SERVICE = 'codesets.index';

/**
 * The index the running server loaded at start (see service.ts), or undefined in scripts, benches and
 * tests, which have no application context; engines then fall back to defaultCodeIndex().
 */
export function runningCodeIndex(): CodeIndex | undefined {
  try {
    return getAppContext().services.get(CODE_INDEX_SERVICE) as CodeIndex | undefined;
  } catch {
    return undefined;
  }
}
