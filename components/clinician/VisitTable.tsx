'use client';
import Link from 'next/link';
import { Badge, statusTone } from '@/components/ui';
import type { SessionListItem } from '@/lib/contracts/clinician';
import { STATUS_LABEL, formatDuration, formatTime, humanize } from './format';

export const NOTE_STATUS_LABEL: Record<string, string> = { draft: 'Draft', signed: 'Signed', amended: 'Amended' };

function noteBadge(s: SessionListItem) {
  if (!s.note_status) return <span className="text-slate-600">—</span>;
  if (s.needs_review) return <Badge tone="warning">{s.note_status === 'amended' ? 'Amending' : 'Needs review'}</Badge>;
  return <Badge tone="success">{NOTE_STATUS_LABEL[s.note_status]}</Badge>;
}

function when(iso: string, withDate: boolean) {
  const d = new Date(iso);
  return withDate ? `${d.toLocaleDateString([], { month: 'short', day: 'numeric', year: 'numeric' })}, ${formatTime(iso)}` : formatTime(iso);
}

/** A scrollable, keyboard-focusable table of visits; `label` names the region and the caption. */
export function VisitTable({ sessions, label, withDate }: { sessions: SessionListItem[]; label: string; withDate: boolean }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-sm" data-testid="visits-table">
        <caption className="sr-only">{label}, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2">
              {withDate ? 'When' : 'Time'}
            </th>
            <th scope="col" className="px-3 py-2">
              Patient
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
            <th scope="col" className="px-3 py-2">
              Note
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.ambient_session_id} className="border-t border-slate-100 hover:bg-slate-50">
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={s.created_at}>{when(s.created_at, withDate)}</time>
              </td>
              <td className="px-3 py-2">
                {s.patient_name ? <span className="font-medium">{s.patient_name}</span> : <span className="text-slate-600">Not given</span>}
                {s.mrn ? <span className="block text-xs text-slate-700">MRN {s.mrn}</span> : null}
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
              <td className="px-3 py-2">{noteBadge(s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
