'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { api } from '@/lib/api/client';
import { exportAdminSessionFhir } from '@/lib/contracts/routes/fhir';
import { getAdminSession } from '@/lib/contracts/routes/admin-sessions';
import { Badge, Table, statusTone } from '@/components/ui';
import { DownloadFhirButton } from '@/components/fhir/DownloadFhirButton';
import { DefinitionList, ErrorState, JsonBlock, Loading, PageHeader, Section, Time } from './common';
import { adminKeys } from './queries';

const TERMINAL = ['completed', 'skipped', 'failed', 'aborted'];

function ms(v: number): string {
  const s = Math.floor(v / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

interface SummarySection {
  title?: string;
  content?: string;
  loinc_code?: string;
}

/** The session's FHIR R4 document as partners receive it; only terminal sessions have one. */
function FhirExport({ sessionId }: { sessionId: string }) {
  const load = (signal?: AbortSignal) => api.call(exportAdminSessionFhir, { params: { id: sessionId } }, { signal });
  const q = useQuery({ queryKey: [...adminKeys.session(sessionId), 'fhir'], queryFn: ({ signal }) => load(signal) });
  return (
    <div className="flex flex-col gap-3">
      <div>
        <DownloadFhirButton filename={`session-${sessionId}.fhir.json`} load={() => load()} />
      </div>
      {q.isPending ? <Loading /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : <JsonBlock value={q.data} label="FHIR bundle JSON" />}
    </div>
  );
}

export function SessionDetail({ sessionId }: { sessionId: string }) {
  const q = useQuery({
    queryKey: adminKeys.session(sessionId),
    queryFn: ({ signal }) => api.call(getAdminSession, { params: { id: sessionId } }, { signal }),
    // Follow a session that is still being processed.
    refetchInterval: (query) => (query.state.data && !TERMINAL.includes(query.state.data.session.status) ? 3000 : false),
  });
  if (q.isPending) return <Loading />;
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  const { session: s, transitions, recordings, transcript, content, webhook_deliveries } = q.data;
  const finalSource = transcript.some((t) => t.source === 'final') ? 'final' : null;
  const lines = finalSource ? transcript.filter((t) => t.source === finalSource) : transcript;
  const summary = Array.isArray(content?.summary) ? (content!.summary as SummarySection[]) : [];
  return (
    <>
      <PageHeader
        title="Session"
        description={
          <>
            <code className="text-xs">{s.ambient_session_id}</code> <Badge tone={statusTone(s.status)}>{s.status}</Badge>
          </>
        }
      />
      <Section title="Overview">
        <DefinitionList
          items={[
            ['Partner', <Link key="p" className="text-blue-800 underline" href={`/admin/partners/${encodeURIComponent(s.partner_id)}`}>{s.partner_id}</Link>],
            ['Provider', `${s.provider_name}${s.provider_email ? ` <${s.provider_email}>` : ''}`],
            ['Encounter', <code key="e" className="text-xs">{s.encounter_id}</code>],
            ['Note ID', <code key="n" className="text-xs">{s.note_id}</code>],
            ['EMR encounter', s.emr_encounter_id ?? '—'],
            ['Audio received', ms(s.audio_ms)],
            ['Error', s.error_code ? `${s.error_code}${s.error_detail ? ` — ${s.error_detail}` : ''}` : '—'],
            ['Created', <Time key="c" iso={s.created_at} />],
            ['Started', <Time key="s" iso={s.started_at} />],
          ]}
        />
      </Section>
      <Section title="Status history">
        <ol className="relative ml-2 border-l border-slate-300 text-sm" aria-label="Status transitions">
          {transitions.map((t, i) => (
            <li key={i} className="mb-3 ml-4">
              <span aria-hidden="true" className="absolute -left-1.5 mt-1.5 h-3 w-3 rounded-full bg-blue-700" />
              <Badge tone={statusTone(t.to_status)}>{t.to_status}</Badge>
              {t.from_status ? <span className="text-slate-700"> from {t.from_status}</span> : null} · <Time iso={t.at} />
              {t.reason ? <span className="block text-xs text-slate-700">{t.reason}</span> : null}
            </li>
          ))}
          {transitions.length === 0 ? <li className="ml-4 text-slate-600">No transitions recorded.</li> : null}
        </ol>
      </Section>
      <Section title="Recordings">
        {recordings.length === 0 ? (
          <p className="text-sm text-slate-600">No audio was recorded.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {recordings.map((r) => (
              <li key={r.recording_id} className="flex flex-col gap-1 text-sm">
                <span>
                  Recording {r.sequence_number} · started <Time iso={r.start_time} /> · {Math.round(r.durable_bytes / 1024)} KiB
                </span>
                <audio controls preload="none" src={r.audio_url} aria-label={`Recording ${r.sequence_number} audio`} className="w-full max-w-xl" />
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Transcript">
        {lines.length === 0 ? (
          <p className="text-sm text-slate-600">No transcript yet.</p>
        ) : (
          <ol className="flex flex-col gap-1 text-sm" aria-label="Transcript entries">
            {lines.map((t) => (
              <li key={t.transcript_id}>
                <span className="mr-2 font-mono text-xs text-slate-600">{ms(t.start_offset_ms)}</span>
                <span className="mr-1 text-xs font-semibold text-slate-700">{t.speaker}</span> {t.text}
              </li>
            ))}
          </ol>
        )}
      </Section>
      <Section title="Note content">
        {!content ? (
          <p className="text-sm text-slate-600">No content generated{TERMINAL.includes(s.status) ? '' : ' yet'}.</p>
        ) : (
          <div className="flex flex-col gap-3">
            {summary.map((sec, i) => (
              <article key={i} className="text-sm">
                <h3 className="font-semibold">
                  {sec.title} {sec.loinc_code ? <span className="font-mono text-xs text-slate-600">LOINC {sec.loinc_code}</span> : null}
                </h3>
                <p className="whitespace-pre-wrap">{sec.content}</p>
              </article>
            ))}
            <p className="text-xs text-slate-600">Engine: {content.engine} · updated <Time iso={content.updated_at} /></p>
          </div>
        )}
      </Section>
      <Section title="Structured data">{content ? <JsonBlock value={content.structured_data} label="Structured data" /> : <p className="text-sm text-slate-600">None yet.</p>}</Section>
      <Section title="FHIR bundle">
        {TERMINAL.includes(s.status) ? <FhirExport sessionId={s.ambient_session_id} /> : <p className="text-sm text-slate-600">Available once the session has finished.</p>}
      </Section>
      <Section title="Context">{s.context ? <JsonBlock value={s.context} label="Session context" /> : <p className="text-sm text-slate-600">No context was set.</p>}</Section>
      <Section title="Webhook deliveries">
        <Table
          caption="Webhook deliveries for this session"
          rows={webhook_deliveries}
          rowKey={(d) => d.id}
          empty="No webhook deliveries."
          columns={[
            { key: 'id', header: 'Delivery', cell: (d) => <Link className="font-mono text-xs text-blue-800 underline" href={`/admin/webhooks/${d.id}`}>{d.id}</Link> },
            { key: 'event', header: 'Event', cell: (d) => d.event_type },
            { key: 'status', header: 'Status', cell: (d) => <Badge tone={statusTone(d.status)}>{d.status}</Badge> },
            { key: 'attempts', header: 'Attempts', cell: (d) => d.attempts },
            { key: 'code', header: 'Last response', cell: (d) => d.last_response_code ?? d.last_error ?? '—' },
            { key: 'created', header: 'Created', cell: (d) => <Time iso={d.created_at} /> },
          ]}
        />
      </Section>
    </>
  );
}
