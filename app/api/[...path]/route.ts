import { errorResponse } from '@/server/http/route';

export const dynamic = 'force-dynamic';

/** Unknown /api paths answer with the error body rather than Next's HTML 404 page. */
async function notFound(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  return errorResponse(404, `no API route ${pathname}`, req.headers.get('x-request-id') ?? undefined);
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as HEAD, notFound as OPTIONS };
