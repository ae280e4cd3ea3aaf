import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// The generator calls .openapi() on parameter schemas, which exists only once zod is extended.
extendZodWithOpenApi(z);
import { contractErrors, type RouteContract } from '@/lib/api/contract';
import { ErrorBody } from '@/lib/contracts/common';
import { ERRORS } from '@/lib/errors';

/** Contracts are built before zod is extended; the generator needs parameter schemas made after. */
function reobject(schema: z.ZodType | undefined): z.ZodObject | undefined {
  if (!(schema instanceof z.ZodObject)) return undefined;
  return z.object(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, (v as z.ZodType).clone()])));
}

const SERVICE_TOKEN = 'sdp_service_token';
const PROVIDER_ID = 'sdp_provider_id';
const ADMIN = 'admin_api_key';

/** The OpenAPI 3.1 document, built from the route contracts the handlers are bound to; error responses come from lib/errors.ts. */
export function buildOpenApiDocument(routes: RouteContract[], serverUrl: string): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', SERVICE_TOKEN, { type: 'apiKey', in: 'header', name: 'sdp_service_token' });
  registry.registerComponent('securitySchemes', PROVIDER_ID, {
    type: 'apiKey',
    in: 'header',
    name: 'sdp_provider_id',
    description: 'Required for BEARER and SINGLE_AUTH_TOKEN partners; must match the provider of the service token.',
  });
  registry.registerComponent('securitySchemes', ADMIN, { type: 'http', scheme: 'bearer', description: 'Admin API key' });

  for (const r of routes) {
    const responses: Record<string, { description: string; content?: Record<string, { schema: z.ZodType }> }> = {};
    for (const [status, spec] of Object.entries(r.responses)) {
      responses[status] = spec.schema
        ? { description: spec.description, content: { [spec.contentType ?? 'application/json']: { schema: spec.schema } } }
        : { description: spec.description };
    }
    for (const name of contractErrors(r)) {
      const e = ERRORS[name];
      responses[e.status] ??= { description: `${e.message}: ${e.when}`, content: { 'application/json': { schema: ErrorBody } } };
    }
    registry.registerPath({
      method: r.method.toLowerCase() as 'get',
      path: r.path,
      summary: r.summary,
      description: r.description,
      tags: r.tags,
      deprecated: r.deprecated,
      security: r.auth === 'service' ? [{ [SERVICE_TOKEN]: [], [PROVIDER_ID]: [] }, { [SERVICE_TOKEN]: [] }] : r.auth === 'admin' ? [{ [ADMIN]: [] }] : [],
      request: {
        params: reobject(r.params),
        query: reobject(r.query),
        body: r.body
          ? { required: !r.optionalBody, content: { 'application/json': { schema: r.body } } }
          : r.rawBody
            ? { required: true, description: r.rawBody.description, content: { [r.rawBody.contentType]: { schema: { type: 'string', format: 'binary' } } } }
            : undefined,
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Ambient clinical documentation API',
      version: '1',
      description:
        'Register and log in providers, run ambient sessions, stream audio over /ws/ambient, and read transcripts, notes and coded structured data. Errors are always {code, message}.',
    },
    servers: [{ url: serverUrl }],
  }) as unknown as Record<string, unknown>;
}
