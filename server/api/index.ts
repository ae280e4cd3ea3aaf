import type { RouteDef } from '../http/route';
import { methodHandlers } from '../http/route';
import { authRoutes } from './auth';
import { infoRoutes } from './info';
import { adminPartnerRoutes } from './admin-partners';
import { metaRoutes } from './meta';
import { adminConsoleRoutes } from './admin-console';
import { sessionRoutes } from './sessions';
import { preferenceRoutes } from './preferences';
import { rewriteRoutes } from './rewrite';
import { appRoutes } from './app';
import { webhookRoutes } from './webhooks';
import { ckgRoutes } from './ckg';
import { dictationRoutes } from './dictation';
import { fhirRoutes } from './fhir';
import { workflowRoutes } from './workflow';
import { sessionStatusEventRoutes } from './session-status-events';

/** Every API route. Route files under app/ bind to these by path; the OpenAPI document lists them. */
export const ROUTES: RouteDef[] = [];
ROUTES.push(...authRoutes, ...infoRoutes, ...adminPartnerRoutes, ...appRoutes, ...metaRoutes(() => ROUTES));
ROUTES.push(...sessionRoutes, ...preferenceRoutes, ...rewriteRoutes);
ROUTES.push(...webhookRoutes, ...ckgRoutes);

ROUTES.push(...adminConsoleRoutes);
ROUTES.push(...dictationRoutes);
ROUTES.push(...fhirRoutes);
ROUTES.push(...workflowRoutes);
ROUTES.push(...sessionStatusEventRoutes);

/** The Next route-handler exports for one path. */
export function handlersFor(path: string) {
  const defs = ROUTES.filter((r) => r.path === path);
  if (defs.length === 0) throw new Error(`no API route is defined for ${path}`);
  return methodHandlers(defs);
}
