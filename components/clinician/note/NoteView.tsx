'use client';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '@/components/ui';
import { errorMessage } from '@/lib/api/fetch';
import type { ContentResponse } from '@/lib/contracts/sessions';
import { useContent, useRecordings, useTranscript } from '@/lib/hooks/sessions';
import { useQueryClient } from '@tanstack/react-query';
import { keys } from '@/lib/hooks/sessions';
import { callAsClinician } from '@/lib/hooks/clinician-call';
import { exportSessionFhir } from '@/lib/contracts/routes/fhir';
import { DownloadFhirButton } from '@/components/fhir/DownloadFhirButton';
import { isAlt } from '../shortcuts';
import { focusOnMount } from '../announce';
import { copyText } from './copy-text';
import { SectionEditor } from './SectionEditor';
import { StructuredDataPanel } from './StructuredDataPanel';
import { TranscriptPanel, type PlayRequest } from './TranscriptPanel';
import { codedEvidence, evidenceSentences, type EvidenceSentence } from './evidence';
import { SignoffBar } from './SignoffBar';
import { NoteHistory } from './NoteHistory';
import { useNoteHistory } from '@/lib/hooks/workflow';

/** `focusHeading`: the note has just become ready on this page, so focus moves to its heading. */
export function NoteView({ id, focusHeading = false }: { id: string; focusHeading?: boolean }) {
  const qc = useQueryClient();
  const content = useContent(id, 'completed');
  const transcript = useTranscript(id, true);
  const recordings = useRecordings(id, true);
  const history = useNoteHistory(id);
  const locked = history.data?.locked ?? false;
  // The note sentence whose evidence is shown, and the latest request to play a stretch of audio.
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [play, setPlay] = useState<PlayRequest | null>(null);
  const sentences = useMemo(() => evidenceSentences(content.data?.summary ?? []), [content.data?.summary]);
  const coded = useMemo(() => (content.data ? codedEvidence(content.data.structured_data) : []), [content.data]);
  const selected = sentences.find((s) => s.key === selectedKey) ?? coded.find((c) => c.key === selectedKey) ?? null;
  const playEvidence = (s: EvidenceSentence) => s.evidence && setPlay((p) => ({ startMs: s.evidence!.start_ms, endMs: s.evidence!.end_ms, n: (p?.n ?? 0) + 1 }));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isAlt(e, 'C')) {
        e.preventDefault();
        void copyAll();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Read through the cache: it holds the saved edits.
  async function copyAll() {
    const c = qc.getQueryData<ContentResponse>(keys.content(id));
    if (!c) return;
    const text = c.summary.map((s) => `${s.title}\n${s.content}`).join('\n\n');
    await copyText(text, 'The note');
  }

  if (content.isError) {
    return (
      <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
        The note could not be loaded: {errorMessage(content.error)}
      </p>
    );
  }
  if (content.isPending) return <p className="text-sm text-slate-700">Loading the note…</p>;

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <section aria-labelledby="note-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="note-title" className="text-lg font-semibold" tabIndex={-1} ref={focusHeading ? focusOnMount : undefined}>
            Note
          </h2>
          <p className="text-xs text-slate-700">
            {locked ? 'The note is signed and locked. Amend it to make changes.' : 'Edits save automatically. Select text and press Alt+W to rewrite it.'}
          </p>
          <Button size="sm" variant="secondary" className="ml-auto" onClick={() => void copyAll()} aria-keyshortcuts="Alt+C">
            Copy whole note
          </Button>
          <DownloadFhirButton filename={`visit-${id}.fhir.json`} load={() => callAsClinician(qc, exportSessionFhir, { params: { ambient_session_id: id } }, { validate: false })} />
        </div>
        <SignoffBar sessionId={id} state={history.data} />
        {content.data.summary.length === 0 ? <p className="text-sm text-slate-700">The note has no sections.</p> : null}
        {content.data.summary.map((s) => (
          <SectionEditor
            key={s.loinc_code}
            sessionId={id}
            section={s}
            locked={locked}
            evidence={{ sentences: sentences.filter((x) => x.loinc === s.loinc_code), selected: selectedKey, onSelect: setSelectedKey, onPlay: playEvidence }}
          />
        ))}
      </section>
      <div className="flex flex-col gap-4">
        <StructuredDataPanel data={content.data.structured_data} evidence={{ items: coded, selected: selectedKey, onSelect: setSelectedKey }} sessionId={id} locked={locked} />
        <NoteHistory sessionId={id} />
        {transcript.isError ? (
          <p role="alert" className="text-sm text-red-800">
            The transcript could not be loaded: {errorMessage(transcript.error)}
          </p>
        ) : (
          <TranscriptPanel
            entries={transcript.data?.final_transcript ?? []}
            gaps={transcript.data?.recording_gaps ?? []}
            recordings={recordings.data?.recordings ?? []}
            sentences={[...sentences, ...coded]}
            selected={selected}
            onSelectSentence={setSelectedKey}
            play={play}
          />
        )}
      </div>
    </div>
  );
}
