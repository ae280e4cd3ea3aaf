import { apiError, badRequest } from '@/lib/errors';
import { findNul, jsonDepthExceeds, MAX_JSON_DEPTH } from './hostile-input';

/** Reads a body's bytes without ever holding more than the limit in memory (413 past it). */
export async function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const declared = req.headers.get('content-length');
  if (declared && Number(declared) > limit) throw apiError('payload_too_large', `request body is larger than ${limit} bytes`);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw apiError('payload_too_large', `request body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body without ever holding more than the limit in memory. */
export async function readJsonBody(req: Request, limit: number): Promise<unknown> {
  const bytes = await readRawBody(req, limit);
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('request body is not valid UTF-8');
  }
  if (jsonDepthExceeds(text)) throw badRequest(`request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('request body is not valid JSON');
  }
  const nul = findNul(value);
  if (nul !== null) throw badRequest(`${nul || 'body'}: must not contain NUL characters (\\u0000)`);
  return value;
}
