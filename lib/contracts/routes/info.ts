/** The reference lists under /api/v1/info: all of them at once, and one route per list. */
import { z } from 'zod';
import { defineContract } from '@/lib/api/contract';
import { INFO, INFO_ROUTES } from '@/lib/info';

const listItem = z.object({ code: z.string() }).passthrough();
/** Each list's item: `code`, except diagnosis_code_types (`code_type`, as the spec names it) and the form templates. */
const itemOf = (key: string) =>
  key === 'form_templates' ? z.record(z.string(), z.unknown()) : key === 'diagnosis_code_types' ? z.object({ code_type: z.string() }).passthrough() : listItem;

export const getAllInfo = defineContract({
  method: 'GET',
  path: '/api/v1/info',
  summary: 'All reference information lists',
  tags: ['Info'],
  auth: 'service',
  responses: {
    200: { description: 'the 14 lists', schema: z.object(Object.fromEntries(Object.keys(INFO).map((k) => [k, z.array(z.record(z.string(), z.unknown()))]))) },
  },
  errors: ['invalid_request', 'forbidden'],
});

/** One contract per list, in the order of INFO_ROUTES (whose bodies the handlers answer). */
export const getInfoList = INFO_ROUTES.map((r) =>
  defineContract({
    method: 'GET',
    path: `/api/v1/info/${r.path}`,
    summary: `Reference list: ${r.path}`,
    tags: ['Info'],
    auth: 'service',
    responses: {
      200: { description: r.key, schema: z.object(Object.fromEntries(Object.keys(r.body).map((k) => [k, z.array(itemOf(k))]))) },
    },
    errors: ['forbidden'],
  }),
);
