import type { NextConfig } from 'next';

const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), geolocation=(), microphone=(self)' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  {
    key: 'Content-Security-Policy',
    value: [
      "default-src 'self'",
      "script-src 'self' 'unsafe-inline'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "media-src 'self' blob:",
      "connect-src 'self' ws: wss:",
      "worker-src 'self' blob:",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Separate build directories let several checkouts' test runs build side by side.
  distDir: process.env.NEXT_DIST_DIR || '.next',
  reactStrictMode: true,
  typedRoutes: false,
  // Type checking runs once in the test script (npm run typecheck) rather than inside every build.
  typescript: { ignoreBuildErrors: true },
  // Native and WASM packages are loaded by Node at run time rather than bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss', 'pino', '@node-rs/argon2', 'koffi', 'ws', 'prom-client'],
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
