'use client';
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { contractPath } from '@/lib/api/client';
import { readSse } from '@/lib/api/sse';
import { SessionStatusResponse } from '@/lib/contracts/sessions';
import { streamSessionStatus } from '@/lib/contracts/routes/session-status-events';
import { authHeaders, getServiceToken } from './v1';

/**
 * Follows a session's status over Server-Sent Events and writes each change into the status query. True
 * while the stream is up: the caller polls only when it is not (never opened, broken, or ended).
 */
export function useStatusEvents(id: string, statusKey: QueryKey): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    const follow = async () => {
      const token = await getServiceToken(qc);
      const res = await fetch(contractPath(streamSessionStatus, { ambient_session_id: id }), {
        headers: { ...authHeaders(token), accept: 'text/event-stream' },
        signal: ctrl.signal,
      });
      if (!res.ok || !res.body) return;
      setLive(true);
      await readSse(res.body, (e) => {
        if (e.event !== 'status') return;
        const parsed = SessionStatusResponse.safeParse(JSON.parse(e.data));
        if (parsed.success) qc.setQueryData(statusKey, parsed.data);
      });
    };
    follow()
      .catch(() => undefined)
      .finally(() => ctrl.signal.aborted || setLive(false));
    return () => ctrl.abort();
    // statusKey is derived from id; a new array each render must not reopen the stream.
  }, [id, qc]);
  return live;
}
