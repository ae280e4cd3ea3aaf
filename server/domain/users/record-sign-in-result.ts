import type { AppContext } from '../../context';
import { backoffSeconds, KNOWN_ADDRESS_SECONDS, pairKey, signInLimits } from './sign-in-limits';

/** Over the limit already (a concurrent attempt got there first): nothing more to count. */
const ignoreRejection = (p: Promise<unknown>) => p.catch((err: unknown) => (err instanceof Error ? Promise.reject(err) : undefined));

export type SignInResult = 'signed-in' | 'wrong-password' | 'no-account';

/**
 * Counts a failed password attempt against the account, the address and the pair (starting or lengthening
 * the pair's back-off), or, on success, clears the pair and remembers the address as one the account uses.
 * An email with no account is counted only against the address, apart from failures at real accounts.
 */
export async function recordSignInResult(app: AppContext, email: string, address: string, result: SignInResult): Promise<void> {
  const l = signInLimits(app);
  const pair = pairKey(email, address);
  if (result === 'signed-in') {
    await Promise.all([l.pairFailures.delete(pair), l.pairBlock.delete(pair), l.known.set(pair, 1, KNOWN_ADDRESS_SECONDS)]);
    return;
  }
  if (result === 'no-account') {
    await ignoreRejection(l.unknownAccountAddress.consume(address));
    return;
  }
  const [failures] = await Promise.all([l.pairFailures.consume(pair), ignoreRejection(l.account.consume(email)), ignoreRejection(l.address.consume(address))]);
  const wait = backoffSeconds(failures.consumedPoints, app.config.signIn);
  if (wait > 0) await l.pairBlock.block(pair, wait);
}
