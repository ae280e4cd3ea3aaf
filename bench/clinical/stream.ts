/** One visit through the real API: create a session, stream PCM over /ws/ambient, end it, wait, read the note. */
import WebSocket from 'ws';
import { AUTH_PROTOCOL, BYTES_PER_MS, EOF_FRAME } from '../../lib/contracts/stream-protocol';
import type { TranscriptEntry } from '../../lib/contracts/session-content';
import type { NoteResult } from '../../server/engines/notes/types';
import type { TestProvider } from '../../server/test/partners';

const FRAME_MS = 100;
const FRAME_BYTES = FRAME_MS * BYTES_PER_MS;

export interface VisitOutcome {
  status: string;
  content?: Pick<NoteResult, 'summary' | 'structured_data'>;
  /** The final transcript's words, in order. */
  transcript: string;
  entries?: Array<{ speaker: string; transcript: string }>;
  /** The final transcript as the API gave it (ids, offsets, words with confidence), so a note can be rewritten from it offline. */
  raw?: TranscriptEntry[];
}

export async function runVisit(baseUrl: string, wsUrl: string, dr: TestProvider, pcm: Buffer, speed: number): Promise<VisitOutcome> {
  const created = await fetch(`${baseUrl}/api/v1/ambient/session/create`, { method: 'POST', headers: dr.headers, body: '{}' });
  const { ambient_session_id: id } = (await created.json()) as { ambient_session_id: string };
  const ws = new WebSocket(`${wsUrl}/ws/ambient`, [AUTH_PROTOCOL, id, dr.serviceToken]);
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString()) as { type: string; message?: string };
    if (f.type === 'ERROR') console.error(`  server error: ${f.message}`);
  });
  await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
  ws.send(JSON.stringify({ type: 'START_TIME', data: Buffer.from(new Date().toISOString()).toString('base64') }));
  const frames = Math.ceil(pcm.length / FRAME_BYTES);
  const t0 = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(frames, Math.floor(((performance.now() - t0) * speed) / FRAME_MS) + 1);
      while (sent < due) {
        ws.send(pcm.subarray(sent * FRAME_BYTES, (sent + 1) * FRAME_BYTES));
        sent++;
      }
      if (sent >= frames) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
  ws.send(JSON.stringify(EOF_FRAME));
  let status = 'running';
  const deadline = Date.now() + 30 * 60_000;
  while (!['completed', 'skipped', 'failed', 'aborted'].includes(status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const r = await fetch(`${baseUrl}/api/v1/ambient/session/${id}/status`, { headers: dr.headers });
    status = ((await r.json()) as { status: string }).status;
  }
  ws.close();
  if (status !== 'completed') return { status, transcript: '' };
  const content = (await (await fetch(`${baseUrl}/api/v1/ambient/session/${id}/content`, { headers: dr.headers })).json()) as VisitOutcome['content'];
  const tr = (await (await fetch(`${baseUrl}/api/v1/ambient/session/${id}/transcript`, { headers: dr.headers })).json()) as { final_transcript: TranscriptEntry[] };
  return { status, content, transcript: tr.final_transcript.map((e) => e.transcript).join(' '), entries: tr.final_transcript.map((e) => ({ speaker: e.speaker, transcript: e.transcript })), raw: tr.final_transcript };
}
