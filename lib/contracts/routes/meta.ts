/** Routes about the service itself: its OpenAPI document, signing keys, liveness, readiness and metrics. */
import { z } from 'zod';
import { defineContract } from '@/lib/api/contract';

const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
const Readiness = z.object({ status: z.string(), database: z.string(), queue: z.string() });

export const getOpenApiDocument = defineContract({
  method: 'GET',
  path: '/api/v1/openapi.json',
  summary: 'This OpenAPI 3.1 document',
  tags: ['Meta'],
  auth: 'none',
  responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
});

export const getJwks = defineContract({
  method: 'GET',
  path: '/api/auth/.well-known/jwks-pub.json',
  summary: 'Public keys that verify service tokens',
  tags: ['Auth'],
  auth: 'none',
  responses: { 200: { description: 'JWKS', schema: Jwks } },
});

export const getHealth = defineContract({
  method: 'GET',
  path: '/api/health',
  summary: 'Liveness',
  tags: ['Meta'],
  auth: 'none',
  responses: { 200: { description: 'alive', schema: z.object({ status: z.literal('ok') }) } },
});

export const getReadiness = defineContract({
  method: 'GET',
  path: '/api/ready',
  summary: 'Readiness: database and job queue reachable',
  tags: ['Meta'],
  auth: 'none',
  responses: { 200: { description: 'ready', schema: Readiness }, 503: { description: 'not ready', schema: Readiness } },
});

export const getMetrics = defineContract({
  method: 'GET',
  path: '/metrics',
  summary: 'Prometheus metrics (a bearer METRICS_TOKEN, or a loopback HOST without one)',
  tags: ['Meta'],
  auth: 'none',
  responses: { 200: { description: 'metrics in the Prometheus text format', contentType: 'text/plain; version=0.0.4' } },
  errors: ['invalid_token', 'forbidden'],
});
