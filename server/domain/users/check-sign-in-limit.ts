import type { AppContext } from '../../context';
import { exhausted, pairKey, signInLimits } from './sign-in-limits';

/**
 * Seconds this account must wait before another password attempt from this address (0: go ahead).
 * Reads the counters only; failures are counted by recordSignInResult.
 */
export async function checkSignInLimit(app: AppContext, email: string, address: string): Promise<number> {
  const l = signInLimits(app);
  const pair = pairKey(email, address);
  const [pairBlock, byAddress, byAccount, known] = await Promise.all([l.pairBlock.get(pair), l.address.get(address), l.account.get(email), l.known.get(pair)]);
  const waits = [pairBlock, byAddress, known ? null : byAccount].filter(exhausted).map((r) => r!.msBeforeNext);
  return waits.length ? Math.max(1, Math.ceil(Math.max(...waits) / 1000)) : 0;
}
