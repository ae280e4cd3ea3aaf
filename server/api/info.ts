import { z } from 'zod';
import { INFO, INFO_ROUTES } from '@/lib/info';
import { defineRoute, type RouteDef } from '../http/route';
import { errors } from './responses';

const listItem = z.object({ code: z.string() }).passthrough();

export const infoRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    path: '/api/v1/info',
    summary: 'All reference information lists',
    tags: ['Info'],
    auth: 'service',
    responses: {
      200: { description: 'the 14 lists', schema: z.object(Object.fromEntries(Object.keys(INFO).map((k) => [k, z.array(z.record(z.string(), z.unknown()))]))) },
      ...errors(400, 401, 403),
    },
    handler: () => INFO,
  }),
  ...INFO_ROUTES.map((r) =>
    defineRoute({
      method: 'GET',
      path: `/api/v1/info/${r.path}`,
      summary: `Reference list: ${r.path}`,
      tags: ['Info'],
      auth: 'service',
      responses: {
        200: { description: r.key, schema: z.object(Object.fromEntries(Object.keys(r.body).map((k) => [k, z.array(k === 'form_templates' ? z.record(z.string(), z.unknown()) : listItem)]))) },
        ...errors(401, 403),
      },
      handler: () => r.body,
    }),
  ),
];
