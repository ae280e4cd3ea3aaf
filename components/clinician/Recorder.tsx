'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Dialog, Select } from '@/components/ui';
import { ApiClientError } from '@/lib/api-client';
import { AmbientRecorder, listInputDevices } from '@/lib/audio/recorder';
import { getSessionStatus } from '@/lib/contracts/routes/sessions';
import { getServiceToken, v1 } from '@/lib/hooks/v1';
import { useRecorderStore, type ConnectionState } from '@/lib/stores/recorder';
import { formatDuration } from './format';
import { isAlt } from './shortcuts';

const CONNECTION: Record<ConnectionState, { label: string; cls: string }> = {
  idle: { label: 'Not connected', cls: 'bg-slate-100 text-slate-800 ring-slate-300' },
  connecting: { label: 'Connecting…', cls: 'bg-blue-50 text-blue-900 ring-blue-300' },
  connected: { label: 'Connected', cls: 'bg-green-50 text-green-900 ring-green-300' },
  reconnecting: { label: 'Reconnecting…', cls: 'bg-amber-50 text-amber-900 ring-amber-300' },
  offline: { label: 'Offline', cls: 'bg-red-50 text-red-900 ring-red-300' },
};

export function Recorder({ sessionId, resumed, onEnded }: { sessionId: string; resumed: boolean; onEnded: () => void }) {
  const qc = useQueryClient();
  const st = useRecorderStore();
  const rec = useRef<AmbientRecorder | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const transcriptRef = useRef<HTMLOListElement>(null);
  const active = st.sessionId === sessionId;
  const phase = active ? st.phase : 'idle';
  const recording = phase === 'recording' || phase === 'paused';

  useEffect(() => {
    const refresh = () =>
      listInputDevices()
        .then((devices) => useRecorderStore.getState().patch({ devices }))
        .catch(() => undefined);
    void refresh();
    navigator.mediaDevices?.addEventListener?.('devicechange', refresh);
    return () => navigator.mediaDevices?.removeEventListener?.('devicechange', refresh);
  }, []);

  useEffect(
    () => () => {
      rec.current?.shutdown();
      rec.current = null;
    },
    [],
  );

  // Read-only figures for the end-to-end test (audio recorded and not yet confirmed), on the document so they
  // outlive this view: the test compares the final figure with what the server stored.
  useEffect(
    () =>
      useRecorderStore.subscribe((s) => {
        if (s.sessionId !== sessionId) return;
        document.documentElement.dataset.recordedMs = String(s.elapsedMs);
        document.documentElement.dataset.unackedMs = String(s.unackedMs);
      }),
    [sessionId],
  );

  const start = useCallback(async () => {
    if (rec.current && !['error', 'finished', 'cancelled'].includes(useRecorderStore.getState().phase)) return;
    useRecorderStore.getState().reset(sessionId);
    const r = new AmbientRecorder({
      sessionId,
      store: useRecorderStore,
      getToken: async (fresh) => (await getServiceToken(qc, fresh)).service_token,
      checkSession: async () => {
        try {
          return (await v1(qc, getSessionStatus, { params: { ambient_session_id: sessionId } })).status;
        } catch (err) {
          if (err instanceof ApiClientError && err.code === 404) return null;
          throw err;
        }
      },
    });
    rec.current = r;
    await r.start(useRecorderStore.getState().deviceId || undefined);
  }, [qc, sessionId]);

  const end = useCallback(async () => {
    await rec.current?.end();
    if (useRecorderStore.getState().phase === 'finished') onEnded();
  }, [onEnded]);

  const cancel = useCallback(async () => {
    setConfirmCancel(false);
    await rec.current?.cancel();
    onEnded();
  }, [onEnded]);

  const togglePause = useCallback(() => {
    const p = useRecorderStore.getState().phase;
    if (p === 'recording') rec.current?.pause();
    else if (p === 'paused') rec.current?.resume();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const p = useRecorderStore.getState().phase;
      if (isAlt(e, 'R')) {
        e.preventDefault();
        if (p === 'recording' || p === 'paused') void end();
        else if (p === 'idle' || p === 'error' || !rec.current) void start();
      } else if (isAlt(e, 'P')) {
        e.preventDefault();
        togglePause();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [start, end, togglePause]);

  useEffect(() => {
    // Leaving the page would discard audio that is not on the server yet.
    const onUnload = (e: BeforeUnloadEvent) => {
      if (recording || (active && st.unackedMs > 0)) e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [recording, active, st.unackedMs]);

  const lineCount = active ? st.lines.length : 0;
  const partialText = active ? st.partial?.text : undefined;
  useEffect(() => {
    const el = transcriptRef.current?.parentElement;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lineCount, partialText]);

  const conn = CONNECTION[active ? st.connection : 'idle'];
  const levelPct = Math.min(100, Math.round(Math.sqrt(active ? st.level : 0) * 140));

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[22rem_1fr]">
      <section aria-labelledby="rec-title" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="rec-title" className="text-lg font-semibold">
          Recording
        </h2>
        {resumed && phase === 'idle' ? (
          <p className="rounded-md bg-blue-50 p-2 text-sm text-blue-950">
            This visit was already recording (before a reload or in another tab). Start recording to continue; new audio is added to the same visit.
          </p>
        ) : null}
        <Select
          label="Microphone"
          value={st.deviceId}
          disabled={recording || phase === 'starting' || phase === 'finishing'}
          placeholder="System default"
          options={st.devices.filter((d) => d.deviceId && d.deviceId !== 'default').map((d) => ({ value: d.deviceId, label: d.label }))}
          onChange={(e) => st.patch({ deviceId: e.target.value })}
          hint="The list fills in with device names once the browser may use the microphone."
        />
        <div className="flex items-center gap-3">
          <span className="text-sm font-medium text-slate-800" id="level-label">
            Input level
          </span>
          <div
            role="meter"
            aria-labelledby="level-label"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={levelPct}
            className="h-3 flex-1 overflow-hidden rounded bg-slate-200"
          >
            <div className={`h-full transition-[width] duration-100 ${levelPct > 90 ? 'bg-red-600' : 'bg-green-600'}`} style={{ width: `${levelPct}%` }} />
          </div>
        </div>
        <div className="flex items-baseline justify-between">
          <span className="text-sm text-slate-700">Recorded</span>
          <span role="timer" aria-label="Recorded time" className="font-mono text-3xl tabular-nums" data-testid="elapsed">
            {formatDuration(active ? st.elapsedMs : 0)}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm" role="status" aria-live="polite">
          <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${conn.cls}`} data-testid="connection-state">
            <span aria-hidden="true">●</span> {conn.label}
          </span>
          {phase === 'paused' ? <span className="font-medium text-amber-900">Paused</span> : null}
          {active && st.unackedMs >= 1000 ? (
            <span className="text-slate-700" data-testid="unsent">
              {(st.unackedMs / 1000).toFixed(1)} s of audio kept on this device until the server confirms it
            </span>
          ) : null}
        </div>
        {active && st.error ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="recorder-error">
            {st.error.message}
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {!recording && phase !== 'finishing' && phase !== 'finished' && phase !== 'cancelled' ? (
            <Button onClick={() => void start()} loading={phase === 'starting'} aria-keyshortcuts="Alt+R">
              {resumed ? 'Continue recording' : 'Start recording'}
            </Button>
          ) : null}
          {recording ? (
            <>
              <Button onClick={togglePause} variant="secondary" aria-keyshortcuts="Alt+P">
                {phase === 'paused' ? 'Resume' : 'Pause'}
              </Button>
              <Button onClick={() => void end()} aria-keyshortcuts="Alt+R">
                End visit
              </Button>
              <Button onClick={() => setConfirmCancel(true)} variant="danger">
                Cancel visit
              </Button>
            </>
          ) : null}
          {phase === 'finishing' ? (
            <p role="status" className="text-sm text-slate-800">
              {st.connection === 'connected' ? 'Sending the last audio…' : 'Waiting for the connection to send the remaining audio…'}
            </p>
          ) : null}
        </div>
        <p className="text-xs text-slate-700">
          Shortcuts: <kbd className="font-mono">Alt+R</kbd> start / end, <kbd className="font-mono">Alt+P</kbd> pause / resume.
        </p>
      </section>

      <section aria-labelledby="live-title" className="flex min-h-64 flex-col rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="live-title" className="text-lg font-semibold">
          Live transcript
        </h2>
        <div className="mt-2 max-h-[28rem] flex-1 overflow-y-auto" tabIndex={0} role="region" aria-label="Live transcript, newest at the bottom">
          {lineCount === 0 && !partialText ? (
            <p className="text-sm text-slate-700">{recording ? 'Listening… the transcript appears here as people speak.' : 'The transcript appears here while you record.'}</p>
          ) : null}
          <ol ref={transcriptRef} className="flex flex-col gap-1 text-sm" data-testid="live-transcript" aria-live="polite" aria-relevant="additions">
            {(active ? st.lines : []).map((l) => (
              <li key={l.id}>
                <span className="mr-2 font-mono text-xs text-slate-600">{formatDuration(l.startMs)}</span>
                {l.speaker && l.speaker !== 'UNKNOWN' ? <span className="mr-1 font-medium">{l.speaker === 'CLINICIAN' ? 'Clinician:' : 'Patient:'}</span> : null}
                {l.text}
              </li>
            ))}
            {partialText ? (
              <li className="text-slate-600 italic" aria-hidden="true">
                {partialText}
              </li>
            ) : null}
          </ol>
        </div>
      </section>

      <Dialog
        open={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title="Cancel this visit?"
        description="The recording stops and no note is written. This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmCancel(false)}>
              Keep recording
            </Button>
            <Button variant="danger" onClick={() => void cancel()}>
              Cancel visit
            </Button>
          </>
        }
      />
    </div>
  );
}
