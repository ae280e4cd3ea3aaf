import { adminProviderRoutes } from './admin-providers';
import { adminSessionRoutes } from './admin-sessions';
import { adminApiKeyRoutes } from './admin-api-keys';
import { adminUserRoutes } from './admin-users';
import { adminAuditRoutes } from './admin-audit';

/** The admin console's API beyond partners and webhook deliveries (one spread in index.ts). */
export const adminConsoleRoutes = [...adminProviderRoutes, ...adminSessionRoutes, ...adminApiKeyRoutes, ...adminUserRoutes, ...adminAuditRoutes];
