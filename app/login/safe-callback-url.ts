/**
 * Post-login destinations: only a path on this site. The value is resolved with the URL parser against a
 * placeholder origin, the way a browser would resolve it against ours, and kept only when it stays there.
 * Control characters and whitespace are refused outright: browsers strip TAB/CR/LF from URLs, so
 * `/\t/evil.example` passes a prefix check yet is followed as `//evil.example`.
 */
const BASE = 'http://callback.invalid';
// Any C0/C1 control, DEL, or Unicode whitespace (\s covers NBSP, U+2028 and the like).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\s]/u;

export function safeCallbackUrl(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || UNSAFE.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path the parser normalised into `//host` or `/\host` would be read by the browser as another host.
  return path.startsWith('//') || path.startsWith('/\\') ? fallback : path;
}

/** next-auth's redirect callback: same-site paths and absolute URLs on `baseUrl`'s origin, else `baseUrl`. */
export function safeRedirect(url: string, baseUrl: string): string {
  if (url.startsWith('/')) {
    const path = safeCallbackUrl(url, '');
    return path ? `${baseUrl}${path}` : baseUrl;
  }
  if (UNSAFE.test(url)) return baseUrl;
  try {
    const target = new URL(url);
    return target.origin === new URL(baseUrl).origin ? target.href : baseUrl;
  } catch {
    return baseUrl;
  }
}
