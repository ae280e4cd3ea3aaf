'use client';
/**
 * Uploads a recording file to a visit in chunks (lib/contracts/uploads.ts): each chunk is one PUT at the
 * offset the server holds, so a dropped chunk is resent from where the server stands, and a page reloaded
 * mid-upload resumes the same upload when the same file is picked again (its id is kept in localStorage).
 */
import type { QueryClient } from '@tanstack/react-query';
import { ApiClientError } from '@/lib/api/fetch';
import { contractPath } from '@/lib/api/client';
import { authHeaders, callAsClinician, getServiceToken } from '@/lib/hooks/clinician-call';
import { createUpload, getUpload, putUploadChunk } from '@/lib/contracts/routes/uploads';
import { UploadStatus } from '@/lib/contracts/uploads';

/** Tries of one chunk before giving up (a network that stays down); each waits a little longer. */
const TRIES = 6;

const keyOf = (sessionId: string, f: File) => `ambient-upload:${sessionId}:${f.name}:${f.size}:${f.lastModified}`;

/** The media type to declare: the browser's, or one from the file name when the browser gives none. */
export function declaredType(f: File): string {
  if (f.type) return f.type;
  const ext = f.name.toLowerCase().split('.').pop() ?? '';
  const byExt: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', webm: 'audio/webm', ogg: 'audio/ogg', opus: 'audio/ogg', flac: 'audio/flac' };
  return byExt[ext] ?? 'application/octet-stream';
}

async function resumable(qc: QueryClient, sessionId: string, file: File): Promise<UploadStatus | null> {
  const id = localStorage.getItem(keyOf(sessionId, file));
  if (!id) return null;
  try {
    const s = await callAsClinician(qc, getUpload, { params: { ambient_session_id: sessionId, upload_id: id } });
    return s.state === 'receiving' && s.size === file.size ? s : null;
  } catch {
    return null;
  }
}

async function putChunk(qc: QueryClient, s: UploadStatus, body: Blob): Promise<UploadStatus> {
  const path = contractPath(putUploadChunk, { ambient_session_id: s.ambient_session_id, upload_id: s.upload_id });
  let token = await getServiceToken(qc);
  for (let refreshed = false; ; refreshed = true) {
    const res = await fetch(`${path}?offset=${s.offset}`, { method: 'PUT', headers: { ...authHeaders(token), 'content-type': 'application/octet-stream' }, body });
    const data = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
    if (res.ok) return UploadStatus.parse(data);
    if (res.status === 401 && !refreshed) {
      token = await getServiceToken(qc, true);
      continue;
    }
    throw new ApiClientError(data.code ?? res.status, data.message ?? `upload failed with status ${res.status}`);
  }
}

/**
 * Sends the file and resolves with the finished upload (the visit then processes it), reporting the bytes
 * the server holds after each chunk. Throws ApiClientError with the server's message for a refused file.
 */
export async function uploadRecording(qc: QueryClient, sessionId: string, file: File, onProgress: (sent: number, total: number) => void, signal?: AbortSignal): Promise<UploadStatus> {
  let s =
    (await resumable(qc, sessionId, file)) ??
    (await callAsClinician(qc, createUpload, { params: { ambient_session_id: sessionId }, body: { size: file.size, content_type: declaredType(file), filename: file.name } }));
  localStorage.setItem(keyOf(sessionId, file), s.upload_id);
  onProgress(s.offset, file.size);
  let failures = 0;
  while (s.state === 'receiving') {
    if (signal?.aborted) throw new ApiClientError(0, 'upload cancelled');
    try {
      s = await putChunk(qc, s, file.slice(s.offset, s.offset + s.max_chunk_bytes));
      failures = 0;
    } catch (err) {
      // A chunk refused for its place (409) or lost on the way: ask where the upload stands and go on from there.
      const lost = !(err instanceof ApiClientError) || err.code === 409 || err.code >= 500;
      if (!lost || ++failures >= TRIES) throw err;
      await new Promise((r) => setTimeout(r, 500 * failures));
      s = await callAsClinician(qc, getUpload, { params: { ambient_session_id: sessionId, upload_id: s.upload_id } });
    }
    onProgress(s.offset, file.size);
  }
  localStorage.removeItem(keyOf(sessionId, file));
  if (s.state === 'failed') throw new ApiClientError(s.error?.code ?? 422, s.error?.message ?? 'the file could not be used');
  return s;
}
