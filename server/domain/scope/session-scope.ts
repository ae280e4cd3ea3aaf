import type { ProviderScope, Scoped } from './scope';

/**
 * The scope a background job acts in for one session: its provider through its partner. Jobs have no
 * caller, but what they read for a session (the provider's preferences, the partner's EMR context) is
 * still that tenant's, and is filtered by the same rules as a request.
 */
export function sessionScope(session: { partnerId: string; providerId: string }): Scoped<ProviderScope> {
  return { scope: Object.freeze({ kind: 'provider', partnerId: session.partnerId, providerId: session.providerId }) };
}
