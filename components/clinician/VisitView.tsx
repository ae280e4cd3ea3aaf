'use client';
import Link from 'next/link';
import { useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Badge } from '@/components/ui';
import { ApiClientError, errorMessage } from '@/lib/api/fetch';
import { keys, localDay, useDaySessions, useSessionStatus } from '@/lib/hooks/sessions';
import { keptMs } from '@/lib/audio/unsent-store';
import { useRecorderStore } from '@/lib/stores/recorder';
import { formatTime, humanize } from './format';
import { Recorder } from './Recorder';
import { Processing } from './Processing';
import { EndedWithoutNote } from './EndedWithoutNote';
import { AbandonedBanner } from './AbandonedBanner';
import { NoteView } from './note/NoteView';
import { PatientIdentity } from './PatientIdentity';
import { UploadRecording } from './upload/UploadRecording';
import { PreChart } from './PreChart';
import { StylePicker } from './note/StylePicker';
import { useNoteHistory, useSessionContext } from '@/lib/hooks/workflow';
import { visitBadge } from './visit-status';
import { focusOnMount } from './announce';

export function VisitView({ id }: { id: string }) {
  const qc = useQueryClient();
  const status = useSessionStatus(id);
  const { date, offset } = useMemo(() => localDay(), []);
  const day = useDaySessions(date, offset);
  const item = day.data?.sessions.find((s) => s.ambient_session_id === id);
  // The context names the visit on any day (the day list above only holds today's).
  const ctx = useSessionContext(id);
  const patient = ctx.data?.context.patient;
  const chief = ctx.data?.context.visit?.chief_complaint ?? item?.chief_complaint;
  const recorderPhase = useRecorderStore((s) => (s.sessionId === id ? s.phase : 'idle'));
  // While audio is being captured or is not on the server yet, nothing here may unmount the recorder.
  // (A finished recorder's last ACKs may trail the server's STATUS: the visit has ended all the same.)
  const recorderBusy = useRecorderStore(
    (s) => s.sessionId === id && (['starting', 'recording', 'paused', 'finishing'].includes(s.phase) || (['idle', 'error'].includes(s.phase) && s.unackedMs > 0)),
  );
  const [kept, setKept] = useState(false);
  useEffect(() => {
    keptMs(id).then(
      (ms) => setKept(ms > 0),
      () => setKept(false),
    );
  }, [id]);
  const keepRecorder = recorderBusy || kept;
  // The note's sign-off state (the same query the sign-off bar reads): the header says Signed or Amending from it.
  const signoff = useNoteHistory(id, status.data?.status === 'completed');
  // Focus goes to the note's heading when the note becomes ready while the visit is open, not when a
  // finished visit is opened (its own heading takes focus then).
  const [noteArrives, setNoteArrives] = useState(false);
  if (status.data && status.data.status !== 'completed' && !noteArrives) setNoteArrives(true);
  const statusError = status.isError ? (
    <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="status-error">
      The visit&apos;s status could not be read from the server ({errorMessage(status.error)}); trying again. Recording continues on this device.
    </div>
  ) : null;

  if (status.isError && !status.data && keepRecorder) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-2xl font-semibold">Visit</h1>
        {statusError}
        <Recorder sessionId={id} resumed storedMs={item?.audio_ms} onEnded={() => void qc.invalidateQueries({ queryKey: keys.status(id) })} />
      </div>
    );
  }
  if (status.isError && !status.data) {
    const code = status.error instanceof ApiClientError ? status.error.code : 0;
    return (
      <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-red-900">
        <h1 className="text-lg font-semibold">{code === 404 ? 'Visit not found' : 'This visit could not be loaded'}</h1>
        <p className="mt-1 text-sm">
          {code === 404 ? 'It may belong to another clinician, or the link is wrong.' : errorMessage(status.error)}{' '}
          <Link href="/visits" className="underline">
            Back to today&apos;s visits
          </Link>
        </p>
      </div>
    );
  }
  if (!status.data) return <p className="text-sm text-slate-700">Loading visit…</p>;

  const s = status.data.status;
  // The recorder knows audio has ended before the status poll does.
  const capturing = ((s === 'created' || s === 'ready') && recorderPhase !== 'finished') || recorderBusy;
  const shownStatus = !capturing && (s === 'created' || s === 'ready') ? 'running' : s;
  const badge = visitBadge({ status: s, capturing, recorder: recorderPhase, signoff: s === 'completed' ? signoff.data : undefined, signoffLoading: signoff.isPending });
  const locked = s === 'completed' && (signoff.data?.locked ?? false);

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        {/* On a phone a long title is cut to three lines, so the recorder stays in view (the full title is still read out). */}
        <h1 className="line-clamp-3 min-w-0 text-lg font-semibold break-words sm:line-clamp-none sm:text-2xl" tabIndex={-1} ref={focusOnMount} data-testid="visit-heading">
          {patient?.name ? `${patient.name}${chief ? ` — ${chief}` : ''}` : chief || 'Visit'}
        </h1>
        <Badge tone={badge.tone}>
          <span data-testid="visit-status">{badge.label}</span>
        </Badge>
        {item ? (
          <span className="text-sm text-slate-700">
            {formatTime(item.created_at)}
            {item.visit_type ? ` · ${humanize(item.visit_type)}` : ''}
          </span>
        ) : null}
      </div>
      <AbandonedBanner id={id} status={s} />
      {ctx.data ? <PatientIdentity key={`${patient?.name ?? ''}|${patient?.mrn ?? ''}`} sessionId={id} name={patient?.name ?? null} mrn={patient?.mrn ?? null} /> : null}
      {capturing ? statusError : null}
      {capturing ? (
        <Recorder
          sessionId={id}
          resumed={s === 'ready'}
          storedMs={item?.audio_ms}
          onEnded={() => {
            void qc.invalidateQueries({ queryKey: keys.status(id) });
            void qc.invalidateQueries({ queryKey: ['v1', 'sessions'] });
          }}
        />
      ) : shownStatus === 'running' ? (
        <Processing />
      ) : s === 'completed' ? (
        <NoteView id={id} focusHeading={noteArrives} />
      ) : (
        <EndedWithoutNote status={s} />
      )}
      {/* Not offered once the visit has recorded audio here (a reload in the middle of it): that visit is continued or ended. */}
      {capturing && s !== 'ready' && recorderPhase === 'idle' && !keepRecorder ? <UploadRecording sessionId={id} onUploaded={() => void qc.invalidateQueries({ queryKey: keys.status(id) })} /> : null}
      {capturing ? <PreChart id={id} editable /> : null}
      {capturing || s === 'completed' ? <StylePicker id={id} finished={s === 'completed'} locked={locked} /> : null}
    </div>
  );
}
