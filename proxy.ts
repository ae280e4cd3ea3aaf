/**
 * Next 16's request proxy (formerly middleware): a fresh nonce per request, in the page's
 * Content-Security-Policy (server/http/security-headers.ts). Next reads the policy from the request headers
 * and puts the nonce on the scripts it renders; every page renders per request (app/layout.tsx), so none is
 * served with scripts from build time that the policy would block.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { pageCsp } from './server/http/security-headers';

export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const csp = pageCsp(nonce, { host: request.headers.get('host'), dev: process.env.NODE_ENV === 'development' });
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', csp);
  headers.set('x-nonce', nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('Content-Security-Policy', csp);
  return response;
}

export const config = {
  // Build output is immutable and never a document.
  matcher: ['/((?!_next/static|_next/image|favicon.ico).*)'],
};
