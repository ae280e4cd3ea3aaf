'use client';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Dialog, Select } from '@/components/ui';
import { listInputDevices } from '@/lib/audio/recorder';
import { useRecorderStore, type TranscriptLine } from '@/lib/stores/recorder';
import { useTranscript } from '@/lib/hooks/sessions';
import { durationMs } from '@/lib/transcript/duration';
import { formatDuration } from './format';
import { isAlt } from './shortcuts';
import { ConnectionStatus } from './recorder/ConnectionStatus';
import { KeptAudio } from './recorder/KeptAudio';
import { seconds } from './recorder/seconds';
import { useAmbientRecorder } from './recorder/use-ambient-recorder';

/** `storedMs`: the visit's audio on the server when the page opened (a resumed visit's counter goes on from it). */
export function Recorder({ sessionId, resumed, storedMs, onEnded }: { sessionId: string; resumed: boolean; storedMs?: number; onEnded: () => void }) {
  const st = useRecorderStore();
  const recorder = useAmbientRecorder(sessionId, resumed);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const transcriptRef = useRef<HTMLOListElement>(null);
  const active = st.sessionId === sessionId;
  const phase = active ? st.phase : 'idle';
  const recording = phase === 'recording' || phase === 'paused';
  const restored = active ? st.restored : null;
  // After a reload this page's live lines start empty: what the recogniser already heard in this visit is read back, so
  // the clinician still sees the visit so far (a browser trial, 28 Nov, saw only the lines after the reload).
  const earlier = useTranscript(sessionId, resumed);
  const liveLines = active ? st.lines : null;
  const lines = useMemo(() => {
    const live = liveLines ?? [];
    const seen = new Set(live.map((l) => l.id));
    const before: TranscriptLine[] = (earlier.data?.final_transcript ?? [])
      .filter((e) => !seen.has(e.transcript_id))
      .map((e) => ({ id: e.transcript_id, text: e.transcript, startMs: durationMs(e.start_offset), endMs: durationMs(e.end_offset), speaker: e.speaker, isFinal: true }));
    return [...before, ...live].sort((a, b) => a.startMs - b.startMs);
  }, [earlier.data, liveLines]);

  useEffect(() => {
    const refresh = () =>
      listInputDevices()
        .then((devices) => useRecorderStore.getState().patch({ devices }))
        .catch(() => undefined);
    const onDeviceChange = () => void refresh();
    onDeviceChange();
    navigator.mediaDevices?.addEventListener?.('devicechange', onDeviceChange);
    return () => navigator.mediaDevices?.removeEventListener?.('devicechange', onDeviceChange);
  }, []);

  // Read-only figures for the end-to-end tests (audio recorded, not yet confirmed, confirmed), on the document
  // so they outlive this view: the tests compare them with what the server stored.
  useEffect(
    () =>
      useRecorderStore.subscribe((s) => {
        if (s.sessionId !== sessionId) return;
        document.documentElement.dataset.recordedMs = String(s.elapsedMs);
        document.documentElement.dataset.unackedMs = String(s.unackedMs);
        document.documentElement.dataset.ackedMs = String(s.ackedMs);
      }),
    [sessionId],
  );

  // A visit whose End was queued (offline, or before a reload) finishes on its own once the audio is sent.
  useEffect(() => {
    if (phase === 'finished') onEnded();
    // onEnded is a new function each render of the parent; the phase change is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [phase]);

  const { start, end, togglePause, cancel: cancelRecording } = recorder;
  const cancel = useCallback(async () => {
    setConfirmCancel(false);
    await cancelRecording();
    onEnded();
  }, [cancelRecording, onEnded]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const p = useRecorderStore.getState().phase;
      if (isAlt(e, 'R')) {
        e.preventDefault();
        if (p === 'recording' || p === 'paused') void end();
        else if (p === 'idle' || p === 'error') void start();
      } else if (isAlt(e, 'P')) {
        e.preventDefault();
        togglePause();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [start, end, togglePause]);

  useEffect(() => {
    // Leaving the page stops the recording; audio not on the server yet is kept on this device, but is sent
    // only when this visit is opened again.
    const onUnload = (e: BeforeUnloadEvent) => {
      if (recording || (active && st.unackedMs > 0)) e.preventDefault();
    };
    window.addEventListener('beforeunload', onUnload);
    return () => window.removeEventListener('beforeunload', onUnload);
  }, [recording, active, st.unackedMs]);

  // The visit's recorded time, not this page's: after a reload the counter went on from 0:00 (a browser trial, 3 Dec)
  // while the server placed the new audio after the old. Until an ACK places this page's audio, the server's
  // stored audio stands in for what came before it.
  const shownMs = active && st.timelineMs !== null ? st.timelineMs : (resumed ? (storedMs ?? 0) : 0) + (active ? st.elapsedMs : 0);

  const lineCount = lines.length;
  const partialText = active ? st.partial?.text : undefined;
  useEffect(() => {
    const el = transcriptRef.current?.parentElement;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lineCount, partialText]);

  const levelPct = Math.min(100, Math.round(Math.sqrt(active ? st.level : 0) * 140));

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[22rem_1fr]">
      <section aria-labelledby="rec-title" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="rec-title" className="text-lg font-semibold">
          Recording
        </h2>
        {resumed && phase === 'idle' ? (
          // Said also when kept audio was restored: after a reload nothing else says the microphone is off.
          <p role="status" className="rounded-md bg-amber-50 p-2 text-sm text-amber-950" data-testid="recording-stopped">
            Recording is stopped: this visit was recording before the page was reloaded (or in another tab), and nothing said since then is
            recorded. Continue recording to add to the same visit.
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
            {formatDuration(shownMs)}
          </span>
        </div>
        <ConnectionStatus active={active} onRetry={() => recorder.rec.current?.retryNow()} />
        <KeptAudio active={active} onDiscard={recorder.discard} />
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
          {recording || (phase === 'idle' && (restored || resumed)) ? (
            <>
              {recording ? (
                <Button onClick={togglePause} variant="secondary" aria-keyshortcuts="Alt+P">
                  {phase === 'paused' ? 'Resume' : 'Pause'}
                </Button>
              ) : null}
              <Button onClick={() => void end()} aria-keyshortcuts="Alt+R">
                End visit
              </Button>
              {recording || restored ? (
                // After a reload with nothing kept there is no stream to cancel; the visit is ended or continued.
                <Button onClick={() => setConfirmCancel(true)} variant="danger">
                  Cancel visit
                </Button>
              ) : null}
            </>
          ) : null}
          {phase === 'finishing' ? (
            <p role="status" className="text-sm text-slate-800" data-testid="finishing">
              {st.connection === 'connected'
                ? 'Sending the last audio…'
                : `Recording stopped. The visit will finish when the connection returns${st.unackedMs >= 100 ? `: ${seconds(st.unackedMs)} of audio will be sent first` : ''}.`}
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
            {lines.map((l) => (
              <li key={l.id}>
                <span className="mr-2 font-mono text-xs text-slate-600">{formatDuration(l.startMs)}</span>
                {l.speaker && l.speaker !== 'UNKNOWN' ? <span className="mr-1 font-medium">{l.speaker === 'CLINICIAN' ? 'Clinician:' : 'Patient:'}</span> : null}
                {l.text}
                {l.unfinished ? <span className="ml-1 text-xs text-slate-600"> (unfinished: the connection dropped here; the final transcript has this in full)</span> : null}
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
