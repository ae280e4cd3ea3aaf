'use client';
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { contractPath } from '@/lib/api/client';
import { followSse } from '@/lib/api/sse';
import { isTerminal } from '@/lib/contracts/session-status';
import { SessionStatusResponse } from '@/lib/contracts/sessions';
import { streamSessionStatus } from '@/lib/contracts/routes/session-status-events';
import { authHeaders, getServiceToken } from './clinician-call';

/**
 * Follows a session's status over Server-Sent Events and writes each change into the status query. The
 * server ends streams after a maximum lifetime and at shutdown, and networks drop them, so the stream is
 * reopened (with backoff) until the status is terminal (followSse). True while a stream is up: the caller
 * polls only when it is not (never opened, between reconnects, or given up).
 */
export function useStatusEvents(id: string, statusKey: QueryKey): boolean {
  const qc = useQueryClient();
  const [live, setLive] = useState(false);
  useEffect(() => {
    const ctrl = new AbortController();
    let terminal = false;
    let freshToken = false;
    void followSse({
      signal: ctrl.signal,
      open: async (signal) => {
        const token = await getServiceToken(qc, freshToken);
        freshToken = false;
        return fetch(contractPath(streamSessionStatus, { ambient_session_id: id }), {
          headers: { ...authHeaders(token), accept: 'text/event-stream' },
          signal,
        });
      },
      onUnauthorised: async () => {
        freshToken = true;
      },
      onEvent: (e) => {
        if (e.event !== 'status') return;
        const parsed = SessionStatusResponse.safeParse(JSON.parse(e.data));
        if (!parsed.success) return;
        qc.setQueryData(statusKey, parsed.data);
        if (isTerminal(parsed.data.status)) terminal = true;
      },
      finished: () => terminal,
      onLive: (up) => ctrl.signal.aborted || setLive(up),
    }).catch(() => undefined);
    return () => ctrl.abort();
    // statusKey is derived from id; a new array each render must not reopen the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, qc]);
  return live;
}
