/**
 * Response headers every page and API response carries. next.config.ts applies the common ones to what Next
 * serves and proxy.ts adds each page's Content-Security-Policy; server/main.ts applies SECURITY_HEADERS to
 * the API requests it dispatches directly, so both paths answer alike.
 */
export const COMMON_SECURITY_HEADERS: { key: string; value: string }[] = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'Permissions-Policy', value: 'camera=(), geolocation=(), microphone=(self)' },
  { key: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
];

/** API answers are JSON, audio and text, never a document: nothing in one may load or run anything. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export const SECURITY_HEADERS: { key: string; value: string }[] = [...COMMON_SECURITY_HEADERS, { key: 'Content-Security-Policy', value: API_CSP }];

// A Host header is client input: only a plain host[:port] may go into the policy.
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The policy of one page view. Scripts run only from this origin or with this response's nonce (Next puts it
 * on its own inline scripts), so an injected inline script does not run. No 'strict-dynamic': it would drop
 * 'self', and the recorder's AudioWorklet module (/audio/pcm-worklet.js) is loaded by URL, not by a script.
 * Connections go to this origin, including its WebSocket endpoints, which the recorder derives from the
 * page's own host; 'self' covers ws/wss in current browsers, the explicit origins cover older ones.
 */
export function pageCsp(nonce: string, opts: { host?: string | null; dev?: boolean } = {}): string {
  const wsOrigins = opts.host && HOST.test(opts.host) ? [`ws://${opts.host}`, `wss://${opts.host}`] : [];
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlays; production never does.
    `script-src 'self' 'nonce-${nonce}'${opts.dev ? " 'unsafe-eval'" : ''}`,
    // Inline style attributes (React style props, Next's injected styles) are not an XSS vector.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    ["connect-src 'self'", ...wsOrigins].join(' '),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}
