'use client';
import Link from 'next/link';
import { Badge, statusTone } from '@/components/ui';
import type { SessionListItem } from '@/lib/contracts/clinician';
import { STATUS_LABEL, formatDuration, formatTime, humanize } from './format';
import { Highlight } from './Highlight';

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

function NoteMatch({ s, q }: { s: SessionListItem; q?: string }) {
  if (!s.note_match) return null;
  return (
    <span className="mt-1 block text-xs font-normal text-slate-700" data-testid="note-match">
      <span className="font-medium">In the note{s.note_match.section ? ` (${s.note_match.section})` : ''}:</span> <Highlight text={s.note_match.snippet} q={q} />
    </span>
  );
}

/**
 * A scrollable, keyboard-focusable table of visits; `label` names the region and the caption. Each row is
 * one target: its link stretches over the whole row. `q` marks the search text wherever it was found.
 */
export function VisitTable({ sessions, label, withDate, q }: { sessions: SessionListItem[]; label: string; withDate: boolean; q?: string }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className="w-full text-sm" data-testid="visits-table">
        <caption className="sr-only">{label}, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-3 py-2">
              {withDate ? 'When' : 'Time'}
            </th>
            <th scope="col" className="hidden px-3 py-2 sm:table-cell">
              Patient
            </th>
            <th scope="col" className="px-3 py-2">
              Visit
            </th>
            <th scope="col" className="hidden px-3 py-2 md:table-cell">
              Visit type
            </th>
            <th scope="col" className="hidden px-3 py-2 md:table-cell">
              Length
            </th>
            <th scope="col" className="px-3 py-2">
              Status
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.ambient_session_id} className="relative border-t border-slate-100 align-top hover:bg-slate-50 focus-within:bg-blue-50" data-testid="visit-row">
              <td className="px-3 py-2 whitespace-nowrap">
                <time dateTime={s.created_at}>{when(s.created_at, withDate)}</time>
              </td>
              <td className="hidden px-3 py-2 sm:table-cell">
                {s.patient_name ? <span className="font-medium"><Highlight text={s.patient_name} q={q} /></span> : <span className="text-slate-600">Not given</span>}
                {s.mrn ? <span className="block text-xs text-slate-700">MRN <Highlight text={s.mrn} q={q} /></span> : null}
              </td>
              <td className="px-3 py-2 break-words">
                {/* The link's ::after covers the row (the row is positioned), so the whole row opens the visit. */}
                <Link
                  href={`/visits/${s.ambient_session_id}`}
                  className="font-medium text-blue-800 underline-offset-2 after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-2 focus-visible:outline-blue-700"
                >
                  <Highlight text={s.chief_complaint || 'Visit without chief complaint'} q={q} />
                </Link>
                {s.patient_name ? (
                  <span className="block text-xs text-slate-700 sm:hidden">
                    <Highlight text={s.patient_name} q={q} />
                    {s.mrn ? <> · MRN <Highlight text={s.mrn} q={q} /></> : null}
                  </span>
                ) : null}
                <NoteMatch s={s} q={q} />
              </td>
              <td className="hidden px-3 py-2 md:table-cell">{s.visit_type ? humanize(s.visit_type) : '—'}</td>
              <td className="hidden px-3 py-2 tabular-nums md:table-cell">{formatDuration(s.audio_ms)}</td>
              <td className="px-3 py-2">
                <span className="flex flex-col items-start gap-1">
                  <Badge tone={statusTone(s.status)}>{STATUS_LABEL[s.status] ?? s.status}</Badge>
                  {noteBadge(s)}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
