import { z } from 'zod';
import { defineRoute, json, type RouteDef } from '../http/route';
import { buildOpenApiDocument } from '../http/openapi';

const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** Routes about the API itself; the OpenAPI route needs the full list, so it is given it lazily. */
export function metaRoutes(allRoutes: () => RouteDef[]): RouteDef[] {
  let cached: { base: string; doc: Record<string, unknown> } | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      tags: ['Meta'],
      auth: 'none',
      responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
      handler: ({ app }) => {
        if (!cached || cached.base !== app.config.publicBaseUrl) {
          cached = { base: app.config.publicBaseUrl, doc: buildOpenApiDocument(allRoutes(), app.config.publicBaseUrl) };
        }
        return cached.doc;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/auth/.well-known/jwks-pub.json',
      summary: 'Public keys that verify service tokens',
      tags: ['Auth'],
      auth: 'none',
      responses: { 200: { description: 'JWKS', schema: Jwks } },
      handler: ({ app }) => json(app.keys.publicJwks, 200, { 'cache-control': 'public, max-age=300' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/health',
      summary: 'Liveness',
      tags: ['Meta'],
      auth: 'none',
      responses: { 200: { description: 'alive', schema: z.object({ status: z.literal('ok') }) } },
      handler: () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/ready',
      summary: 'Readiness: database and job queue reachable',
      tags: ['Meta'],
      auth: 'none',
      responses: {
        200: { description: 'ready', schema: z.object({ status: z.string(), database: z.string(), queue: z.string() }) },
        503: { description: 'not ready', schema: z.object({ status: z.string(), database: z.string(), queue: z.string() }) },
      },
      handler: async ({ app }) => {
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
      },
    }),
  ];
}
