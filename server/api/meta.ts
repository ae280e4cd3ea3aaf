import * as contract from '@/lib/contracts/routes/meta';
import { apiError } from '@/lib/errors';
import type { RouteContract } from '@/lib/api/contract';
import { bindRoute, json, type RouteDef } from '../http/route';
import { buildOpenApiDocument } from '../http/openapi';
import { metricsRefusal } from '../http/metrics-access';
import { getMetrics } from '../observability/metrics';

/** Routes about the service itself; the OpenAPI route documents every contract, so it is given them lazily. */
export function metaRoutes(allContracts: () => RouteContract[]): RouteDef[] {
  let cached: { base: string; doc: Record<string, unknown> } | undefined;
  return [
    bindRoute(contract.getOpenApiDocument, ({ app }) => {
      if (!cached || cached.base !== app.config.publicBaseUrl) {
        cached = { base: app.config.publicBaseUrl, doc: buildOpenApiDocument(allContracts(), app.config.publicBaseUrl) };
      }
      return cached.doc;
    }),
    bindRoute(contract.getJwks, ({ app }) => json(app.keys.publicJwks, 200, { 'cache-control': 'public, max-age=300' })),
    bindRoute(contract.getHealth, () => ({ status: 'ok' as const })),
    bindRoute(contract.getReadiness, async ({ app }) => {
      const database = await app.database.ping().then(
        () => 'ok',
        () => 'unreachable',
      );
      const queue = await app.boss.getQueues().then(
        () => 'ok',
        () => 'unreachable',
      );
      const ok = database === 'ok' && queue === 'ok';
      return json({ status: ok ? 'ready' : 'not ready', database, queue }, ok ? 200 : 503);
    }),
    bindRoute(contract.getMetrics, async ({ app, req }) => {
      const refusal = metricsRefusal({ headers: { authorization: req.headers.get('authorization') ?? undefined } }, { token: app.config.metricsToken, host: app.config.host });
      if (refusal) throw apiError(refusal.status === 401 ? 'invalid_token' : 'forbidden', refusal.message);
      const { registry } = getMetrics(app);
      return new Response(await registry.metrics(), { headers: { 'content-type': registry.contentType } });
    }),
  ];
}
