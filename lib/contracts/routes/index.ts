/**
 * Every route contract, by area. The OpenAPI document and /docs list these; server/api/index.ts checks at
 * start-up that each one has exactly one handler bound to it.
 */
import type { RouteContract } from '@/lib/api/contract';
import * as auth from './auth';
import * as info from './info';
import * as adminPartners from './admin-partners';
import * as app from './app';
import * as meta from './meta';
import * as sessions from './sessions';
import * as preferences from './preferences';
import * as rewrite from './rewrite';
import * as webhooks from './webhooks';
import * as ckg from './ckg';
import * as adminProviders from './admin-providers';
import * as adminSessions from './admin-sessions';
import * as adminApiKeys from './admin-api-keys';
import * as adminUsers from './admin-users';
import * as adminAudit from './admin-audit';
import * as dictation from './dictation';
import * as fhir from './fhir';
import * as workflow from './workflow';
import * as sessionStatusEvents from './session-status-events';
import * as webhookReceiver from './webhook-receiver';
import * as noteStyle from './note-style';
import * as structuredData from './structured-data';
import * as uploads from './uploads';

const AREAS = [
  auth,
  info,
  adminPartners,
  app,
  meta,
  sessions,
  preferences,
  rewrite,
  webhooks,
  ckg,
  adminProviders,
  adminSessions,
  adminApiKeys,
  adminUsers,
  adminAudit,
  dictation,
  fhir,
  workflow,
  sessionStatusEvents,
  webhookReceiver,
  noteStyle,
  structuredData,
  uploads,
];

export const CONTRACTS: RouteContract[] = AREAS.flatMap((area) => Object.values(area).flat() as RouteContract[]);
