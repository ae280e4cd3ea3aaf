'use client';
import Link from 'next/link';
import { useMemo } from 'react';
import { Badge, statusTone } from '@/components/ui';
import { errorMessage } from '@/lib/api-client';
import { isTerminal } from '@/lib/contracts/session-status';
import { localDay, useDaySessions } from '@/lib/hooks/sessions';
import { STATUS_LABEL, formatDuration, formatTime, humanize } from './format';

export function VisitsList() {
  const { date, offset } = useMemo(() => localDay(), []);
  const q = useDaySessions(date, offset);
  const sessions = q.data?.sessions ?? [];
  const live = sessions.some((s) => !isTerminal(s.status));
  return (
    <section aria-labelledby="visits-title">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 id="visits-title" className="text-2xl font-semibold">
          Today&apos;s visits
        </h1>
        <span className="text-sm text-slate-700">{new Date(`${date}T12:00:00`).toLocaleDateString([], { weekday: 'long', month: 'long', day: 'numeric' })}</span>
        {live ? (
          <span className="text-xs text-blue-900" role="status">
            Updating live while visits are in progress
          </span>
        ) : null}
        <Link
          href="/visits/new"
          className="ml-auto rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        >
          New visit <span className="sr-only">(Alt+N)</span>
        </Link>
      </div>
      {q.isError ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          The visit list could not be loaded: {errorMessage(q.error)}
        </p>
      ) : q.isPending ? (
        <p className="text-sm text-slate-700">Loading visits…</p>
      ) : sessions.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="text-slate-800">No visits yet today.</p>
          <p className="mt-1 text-sm text-slate-700">Start a new visit to record and document it.</p>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Visits created today">
          <table className="w-full text-sm" data-testid="visits-table">
            <caption className="sr-only">Visits created today, newest first</caption>
            <thead className="bg-slate-50 text-left text-slate-700">
              <tr>
                <th scope="col" className="px-3 py-2">
                  Time
                </th>
                <th scope="col" className="px-3 py-2">
                  Chief complaint
                </th>
                <th scope="col" className="px-3 py-2">
                  Visit type
                </th>
                <th scope="col" className="px-3 py-2">
                  Length
                </th>
                <th scope="col" className="px-3 py-2">
                  Status
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.ambient_session_id} className="border-t border-slate-100 hover:bg-slate-50">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <time dateTime={s.created_at}>{formatTime(s.created_at)}</time>
                  </td>
                  <td className="px-3 py-2">
                    <Link href={`/visits/${s.ambient_session_id}`} className="font-medium text-blue-800 underline-offset-2 hover:underline">
                      {s.chief_complaint || 'Visit without chief complaint'}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{s.visit_type ? humanize(s.visit_type) : '—'}</td>
                  <td className="px-3 py-2 tabular-nums">{formatDuration(s.audio_ms)}</td>
                  <td className="px-3 py-2">
                    <Badge tone={statusTone(s.status)}>{STATUS_LABEL[s.status] ?? s.status}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
