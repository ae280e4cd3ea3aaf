// The Scope type lives beside the data layer that applies it (server/db/scope); domain code names it from here.
export type { AllTenantsScope, PartnerScope, ProviderScope, Scope, Scoped } from '../../db/scope/scope';
