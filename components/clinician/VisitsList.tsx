'use client';
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import { isCalendarDate } from '@/lib/contracts/sessions';
import { isTerminal } from '@/lib/contracts/session-status';
import type { SessionListItem } from '@/lib/contracts/clinician';
import { localDay, useDaySessions } from '@/lib/hooks/sessions';
import { shiftDay, useNeedsReview, useSearchSessions } from '@/lib/hooks/workflow';
import { VisitTable } from './VisitTable';

type View = 'day' | 'review' | 'search';

const dayLabel = (date: string) => new Date(`${date}T12:00:00`).toLocaleDateString([], { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/**
 * The clinician's visits: one day at a time (previous/next day and a date picker, kept in the URL so
 * yesterday's list can be bookmarked), a search over patient name, MRN, chief complaint and note text on any day,
 * and the notes that still need review across days.
 */
export function VisitsList() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const today = useMemo(() => localDay(), []);
  const dateParam = params.get('date');
  const date = dateParam && isCalendarDate(dateParam) ? dateParam : today.date;
  const q = params.get('q') ?? '';
  const view: View = q.trim().length >= 2 ? 'search' : params.get('view') === 'review' ? 'review' : 'day';
  const [draft, setDraft] = useState(q);
  useEffect(() => setDraft(q), [q]);

  const day = useDaySessions(date, today.offset);
  const review = useNeedsReview();
  const search = useSearchSessions(q);

  const go = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(next)) {
      if (v === null || v === '') p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    router.replace(s ? `${pathname}?${s}` : pathname);
  };

  const active = view === 'day' ? day : view === 'review' ? review : search;
  const sessions: SessionListItem[] = active.data?.sessions ?? [];
  const live = view === 'day' && sessions.some((s) => !isTerminal(s.status));
  const isToday = date === today.date;
  const reviewCount = review.data?.sessions.length;
  const title = view === 'search' ? `Visits matching “${q}”` : view === 'review' ? 'Notes that need review' : `Visits on ${dayLabel(date)}`;

  return (
    <section aria-labelledby="visits-title">
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <h1 id="visits-title" className="text-2xl font-semibold">
          {view === 'day' && isToday ? "Today's visits" : 'Visits'}
        </h1>
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

      <div className="mb-4 flex flex-wrap items-end gap-3">
        <nav aria-label="Visit lists" className="flex gap-1 rounded-md border border-slate-200 bg-white p-1">
          <Button size="sm" variant={view === 'day' ? 'primary' : 'ghost'} aria-pressed={view === 'day'} onClick={() => go({ view: null, q: null })}>
            By day
          </Button>
          <Button size="sm" variant={view === 'review' ? 'primary' : 'ghost'} aria-pressed={view === 'review'} onClick={() => go({ view: 'review', q: null })}>
            Needs review{reviewCount !== undefined ? ` (${reviewCount})` : ''}
          </Button>
        </nav>
        <form
          role="search"
          aria-label="Search visits"
          className="flex min-w-0 flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            go({ q: draft.trim() || null });
          }}
        >
          <label className="flex min-w-0 flex-col text-sm">
            <span className="text-slate-700">Patient name, MRN or complaint</span>
            <input
              type="search"
              name="q"
              value={draft}
              minLength={2}
              maxLength={100}
              aria-describedby="visit-search-hint"
              onChange={(e) => setDraft(e.target.value)}
              className="w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:outline-2 focus:outline-blue-700"
            />
            <span id="visit-search-hint" className="text-xs text-slate-700">
              Also searches the text of the notes
            </span>
          </label>
          <Button size="sm" type="submit">
            Search
          </Button>
          {q ? (
            <Button size="sm" variant="ghost" onClick={() => go({ q: null })}>
              Clear search
            </Button>
          ) : null}
        </form>
      </div>

      {view === 'day' ? (
        <div className="mb-3 flex flex-wrap items-end gap-2" role="group" aria-label="Choose a day">
          <Button size="sm" variant="secondary" onClick={() => go({ date: shiftDay(date, -1) })}>
            ← Previous day
          </Button>
          <label className="flex flex-col text-sm">
            <span className="text-slate-700">Date</span>
            <input
              type="date"
              value={date}
              max="9999-12-30"
              onChange={(e) => (isCalendarDate(e.target.value) ? go({ date: e.target.value === today.date ? null : e.target.value }) : undefined)}
              className="rounded-md border border-slate-300 px-2 py-1 text-sm focus:outline-2 focus:outline-blue-700"
            />
          </label>
          <Button size="sm" variant="secondary" onClick={() => go({ date: shiftDay(date, 1) })}>
            Next day →
          </Button>
          {!isToday ? (
            <Button size="sm" variant="ghost" onClick={() => go({ date: null })}>
              Back to today
            </Button>
          ) : null}
        </div>
      ) : null}

      <h2 className="mb-2 text-lg font-semibold" data-testid="visits-heading">
        {title}
      </h2>
      {active.isError ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          The visit list could not be loaded: {errorMessage(active.error)}
        </p>
      ) : active.isPending ? (
        <p className="text-sm text-slate-700">Loading visits…</p>
      ) : sessions.length === 0 ? (
        <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="text-slate-800">
            {view === 'search' ? 'No visits match.' : view === 'review' ? 'Every completed note is signed.' : isToday ? 'No visits yet today.' : 'No visits on this day.'}
          </p>
          {view === 'day' && isToday ? <p className="mt-1 text-sm text-slate-700">Start a new visit to record and document it.</p> : null}
        </div>
      ) : (
        <VisitTable sessions={sessions} label={title} withDate={view !== 'day'} q={view === 'search' ? q : undefined} />
      )}
    </section>
  );
}
