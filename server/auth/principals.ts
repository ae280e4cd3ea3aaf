import type { AllTenantsScope, PartnerScope, ProviderScope } from '../domain/scope/scope';

/**
 * Who is calling, as authentication finds them. Declared apart from the authenticators (which read the
 * database through the context) so the context's ports can name them without importing those back.
 */
export interface ServicePrincipal {
  providerId: string;
  partnerId: string;
  organizationId: string;
  partnerProviderId: string | null;
  partnerType: string;
  accessLevel: string;
  email: string | null;
  /** This provider through this partner: domain functions filter by this. */
  scope: ProviderScope;
}

export interface AdminPrincipal {
  /** Service admins see every partner; partner admins only their own. */
  role: 'service_admin' | 'partner_admin';
  partnerId: string | null;
  actor: string;
  /** What the principal may see, derived from role and partner: domain functions filter by this. */
  scope: AllTenantsScope | PartnerScope;
}

/** Console sessions (next-auth) are resolved by a hook the composition root builds, so authentication stays framework-free. */
export type ConsoleAdminResolver = (req: Request) => Promise<AdminPrincipal | null>;

/** A provider link read for a service token, kept for a few seconds (authenticate-service.ts). */
export interface CachedLink {
  principal: ServicePrincipal;
  disabled: boolean;
  expires: number;
}

/** A verified service token's claims, kept for a few seconds by the token's hash (authenticate-service.ts). */
export interface CachedClaims {
  sub: string;
  pid: string;
  exp: number;
  until: number;
}
