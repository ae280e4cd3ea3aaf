import type { AppContext } from '../../context';
import type { AdminPrincipal } from '../../auth/authenticate-admin';
import { disableProvider } from './disable-provider';

export function enableProvider(app: AppContext, partnerId: string, providerId: string, admin: AdminPrincipal) {
  return disableProvider(app, partnerId, providerId, admin, false);
}
