'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { ApiClientError } from '@/lib/api/fetch';
import { AmbientRecorder } from '@/lib/audio/recorder';
import { discardKept, findKept, type KeptCapture } from '@/lib/audio/unsent-store';
import { endSession, getSessionStatus } from '@/lib/contracts/routes/sessions';
import { callAsClinician, getServiceToken } from '@/lib/hooks/clinician-call';
import { useRecorderStore } from '@/lib/stores/recorder';

/**
 * The recorder of one visit page. On opening, audio an earlier page of this visit kept on the device (a
 * reload, a crash, an End queued offline) is restored and resent at once, before any new audio; any request
 * of the app that succeeds tells a waiting reconnect that the server is back.
 */
export function useAmbientRecorder(sessionId: string, resumed = false) {
  const qc = useQueryClient();
  const rec = useRef<AmbientRecorder | null>(null);
  // The visit was recording before this page ("Continue recording"): its first part follows a stretch not recorded,
  // and says why. A ref: the status turning 'ready' while this page records must not make a new recorder.
  const continuesVisit = useRef(resumed);
  continuesVisit.current = resumed;
  const restoring = useRef<Promise<void>>(Promise.resolve());

  const make = useCallback(
    (kept: KeptCapture | null) =>
      new AmbientRecorder({
        sessionId,
        store: useRecorderStore,
        kept,
        continuesVisit: continuesVisit.current,
        getToken: async (fresh) => (await getServiceToken(qc, fresh)).service_token,
        checkSession: async () => {
          try {
            return (await callAsClinician(qc, getSessionStatus, { params: { ambient_session_id: sessionId } })).status;
          } catch (err) {
            if (err instanceof ApiClientError && err.code === 404) return null;
            throw err;
          }
        },
      }),
    [qc, sessionId],
  );

  useEffect(() => {
    let gone = false;
    restoring.current = findKept(sessionId)
      .then((kept) => {
        if (gone || !kept || rec.current) return;
        useRecorderStore.getState().reset(sessionId);
        rec.current = make(kept);
        rec.current.resend();
      })
      .catch(() => undefined); // no IndexedDB here: nothing was kept
    return () => {
      gone = true;
      rec.current?.shutdown();
      rec.current = null;
    };
  }, [sessionId, make]);

  useEffect(
    () =>
      qc.getQueryCache().subscribe((e) => {
        if (e.type === 'updated' && e.action.type === 'success') rec.current?.retryNow();
      }),
    [qc],
  );

  const start = useCallback(async () => {
    await restoring.current;
    const deviceId = useRecorderStore.getState().deviceId || undefined;
    const current = rec.current;
    // A recorder still sending kept audio (or stopped only by a microphone error) continues its capture.
    if (current && !current.isStopped) return current.start(deviceId);
    useRecorderStore.getState().reset(sessionId);
    const r = make(null);
    rec.current = r;
    await r.start(deviceId);
  }, [make, sessionId]);

  const end = useCallback(async () => {
    await restoring.current;
    if (rec.current) return rec.current.end();
    // Reloaded with nothing kept on this device: no stream is open to send its EOF, so the visit ends as the API's end
    // does (a browser trial, 3 Dec, found only "Continue recording" offered, so the visit could not end without recording).
    useRecorderStore.getState().reset(sessionId);
    try {
      await callAsClinician(qc, endSession, { params: { ambient_session_id: sessionId } });
      useRecorderStore.getState().patch({ phase: 'finished' });
    } catch (err) {
      // Already ended (a second press, or another tab): there is nothing left to end.
      if (err instanceof ApiClientError && err.code === 409) return useRecorderStore.getState().patch({ phase: 'finished' });
      const message = `The visit was not ended: ${err instanceof Error ? err.message : String(err)}. Try again.`;
      useRecorderStore.getState().patch({ phase: 'idle', error: { kind: 'server', message } });
    }
  }, [qc, sessionId]);

  const cancel = useCallback(async () => {
    await rec.current?.cancel();
    await discardKept(sessionId).catch(() => undefined);
  }, [sessionId]);

  const togglePause = useCallback(() => {
    const p = useRecorderStore.getState().phase;
    if (p === 'recording') rec.current?.pause();
    else if (p === 'paused') rec.current?.resume();
  }, []);

  /** The clinician confirmed: audio that is not on the server is deleted from this device. */
  const discard = useCallback(async () => {
    rec.current?.shutdown();
    rec.current = null;
    await discardKept(sessionId).catch(() => undefined);
    useRecorderStore.getState().reset(sessionId);
  }, [sessionId]);

  return { rec, start, end, cancel, togglePause, discard };
}
