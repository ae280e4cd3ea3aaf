import type { AppContext } from '../../context';
import { exhausted, pairKey, signInLimits } from './sign-in-limits';

/**
 * Seconds this account must wait before another password attempt from this address (0: go ahead).
 * Reads the counters only; failures are counted by recordSignInResult. An account that signed in from this
 * address before answers only to its own pair's back-off there: failures by others at the address (a NAT, a
 * proxy) or at the account from elsewhere cannot lock it out of where it works.
 */
export async function checkSignInLimit(app: AppContext, email: string, address: string): Promise<number> {
  const l = signInLimits(app);
  const pair = pairKey(email, address);
  const [pairBlock, known, byAddress, byUnknownAccounts, byAccount] = await Promise.all([
    l.pairBlock.get(pair),
    l.known.get(pair),
    l.address.get(address),
    l.unknownAccountAddress.get(address),
    l.account.get(email),
  ]);
  const waits = [pairBlock, ...(known ? [] : [byAddress, byUnknownAccounts, byAccount])].filter(exhausted).map((r) => r!.msBeforeNext);
  return waits.length ? Math.max(1, Math.ceil(Math.max(...waits) / 1000)) : 0;
}
