import { forbidden } from '@/lib/errors';
import type { Scope } from './scope';

/** Actions over the whole service (creating partners, the demo set-up) are service admins' alone: 403 otherwise. */
export function requireAllTenants(scope: Scope, action: string): void {
  if (scope.kind !== 'all') throw forbidden(`only service admins ${action}`);
}
