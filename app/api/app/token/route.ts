import { appRoutes } from '@/server/api/app';
import { methodHandlers } from '@/server/http/route';
import { contextForNextIfReady } from '@/server/next-context';

export const dynamic = 'force-dynamic';

/**
 * The one API route Next serves (its contract says servedBy 'next'): next-auth reads the console session
 * cookie through Next's request scope, which the node dispatcher does not provide.
 */
export const { GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS } = methodHandlers(
  appRoutes.filter((r) => r.contract.servedBy === 'next'),
  contextForNextIfReady,
);
