import { CONTRACTS } from '@/lib/contracts/routes';
import type { RouteDef } from '../http/route';
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
import { uploadRoutes } from './uploads';
import { fhirRoutes } from './fhir';
import { workflowRoutes } from './workflow';
import { sessionStatusEventRoutes } from './session-status-events';
import { webhookReceiverRoutes } from './webhook-receiver';
import { noteStyleRoutes } from './note-style';
import { structuredDataRoutes } from './structured-data';

/**
 * Every route: a contract from lib/contracts/routes with its handler. server/http/node-dispatch.ts serves
 * them (Next serves only the contracts marked servedBy 'next', from app/); the OpenAPI document lists the contracts.
 */
export const ROUTES: RouteDef[] = [
  ...authRoutes,
  ...infoRoutes,
  ...adminPartnerRoutes,
  ...appRoutes,
  ...metaRoutes(() => CONTRACTS),
  ...sessionRoutes,
  ...preferenceRoutes,
  ...rewriteRoutes,
  ...webhookRoutes,
  ...ckgRoutes,
  ...adminConsoleRoutes,
  ...dictationRoutes,
  ...uploadRoutes,
  ...fhirRoutes,
  ...workflowRoutes,
  ...sessionStatusEventRoutes,
  ...webhookReceiverRoutes,
  ...noteStyleRoutes,
  ...structuredDataRoutes,
];

/** A contract without a handler (or with two) would be documented but answer 404, or answer twice over. */
function checkEveryContractBoundOnce(routes: RouteDef[]): void {
  const bound = new Map<unknown, number>();
  for (const r of routes) bound.set(r.contract, (bound.get(r.contract) ?? 0) + 1);
  const problems = CONTRACTS.filter((c) => bound.get(c) !== 1).map((c) => `${c.method} ${c.path}: ${bound.get(c) ?? 0} handlers`);
  const stray = routes.filter((r) => !CONTRACTS.includes(r.contract)).map((r) => `${r.contract.method} ${r.contract.path}: not in lib/contracts/routes/index.ts`);
  if (problems.length || stray.length) throw new Error(`route contracts and handlers disagree:\n${[...problems, ...stray].join('\n')}`);
}
checkEveryContractBoundOnce(ROUTES);
