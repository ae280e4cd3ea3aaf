'use client';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, toast } from '@/components/ui';
import type { SummarySection } from '@/lib/contracts/sessions';
import { isAlt } from '../shortcuts';
import { copyText } from './copy-text';
import { DictateButton } from './DictateButton';
import { RewriteMenu } from './RewriteMenu';
import { RewritePreviewDialog } from './RewritePreviewDialog';
import { SentenceEvidence } from './SentenceEvidence';
import { TemplateMarks } from './TemplateMarks';
import type { EvidenceSentence } from './evidence';
import { saveStatus, useAutosave } from './use-autosave';
import { useRewriteUndo } from './use-rewrite-undo';
import { useAnnounceSave } from '../announce';
import { hintKey, useSignHints } from '@/lib/stores/sign-hints';

export interface SectionEvidenceProps {
  sentences: EvidenceSentence[];
  selected: string | null;
  onSelect: (key: string | null) => void;
  onPlay: (s: EvidenceSentence) => void;
}

/** One note section: its text (autosaved), rewrite of a selection with undo, copy, and each sentence's evidence. */
export function SectionEditor({ sessionId, section, locked = false, evidence }: { sessionId: string; section: SummarySection; locked?: boolean; evidence?: SectionEvidenceProps }) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const { text, change, saveState, persist } = useAutosave(sessionId, section);
  const [selection, setSelection] = useState<{ start: number; end: number }>({ start: 0, end: 0 });
  const [menu, setMenu] = useState(false);
  useAnnounceSave(section.title, saveState.kind, saveStatus(saveState));
  const signHint = useSignHints((h) => (locked ? undefined : h.bySection[hintKey(sessionId, section.loinc_code)]));
  const rw = useRewriteUndo({ sessionId, loinc: section.loinc_code, text, selection, change, textarea: ref, select: setSelection });

  const readSelection = () => {
    const el = ref.current;
    if (el) setSelection({ start: el.selectionStart, end: el.selectionEnd });
  };
  const hasSelection = selection.end > selection.start;

  // Grow with the text so the whole section is visible without an inner scrollbar.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [text]);

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-3" data-testid="note-section" data-loinc={section.loinc_code}>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {section.title}
        </h3>
        <span className="text-xs text-slate-600">LOINC {section.loinc_code}</span>
        <span className={`ml-auto text-xs ${saveState.kind === 'error' ? 'font-medium text-red-700' : 'text-slate-700'}`} data-testid="save-state">
          {saveStatus(saveState)}
        </span>
        {saveState.kind === 'error' ? (
          <Button size="sm" variant="secondary" onClick={() => void persist(text)}>
            Retry save
          </Button>
        ) : null}
      </div>
      {signHint ? (
        <p role="status" className="mb-2 rounded-md bg-amber-50 p-2 text-sm text-amber-950 print:hidden" data-testid="sign-hint">
          {signHint}
        </p>
      ) : null}
      <label htmlFor={`${id}-text`} className="sr-only">
        {section.title} text
      </label>
      <textarea
        id={`${id}-text`}
        ref={ref}
        value={text}
        onChange={(e) => change(e.target.value)}
        // An empty section is not a broken one: the visit said nothing for it (a trial's empty Results box read as a fault).
        placeholder={`Nothing from this visit for ${section.title.toLowerCase()}.${locked ? '' : ' Type or dictate to add.'}`}
        readOnly={locked}
        aria-readonly={locked || undefined}
        onSelect={readSelection}
        onKeyUp={readSelection}
        onMouseUp={readSelection}
        onKeyDown={(e) => {
          if (isAlt(e, 'W') && !locked) {
            e.preventDefault();
            readSelection();
            const el = ref.current!;
            if (el.selectionEnd > el.selectionStart) setMenu(true);
            else toast.info('Select some text in the section first, then press Alt+W.');
          } else if (isAlt(e, 'Z')) {
            e.preventDefault();
            rw.undoLast();
          }
        }}
        aria-keyshortcuts="Alt+W Alt+Z"
        className="min-h-20 w-full resize-y rounded-md border border-slate-300 p-2 text-sm leading-relaxed placeholder:text-slate-600 focus:outline-2 focus:outline-blue-700"
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <RewriteMenu open={menu} setOpen={setMenu} disabled={locked || !hasSelection} pending={rw.pending} onPick={(i) => void rw.run(i)} textarea={ref} />
        <Button size="sm" variant="ghost" disabled={locked || !rw.canUndo} onClick={rw.undoLast} aria-keyshortcuts="Alt+Z">
          Undo rewrite
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void copyText(`${section.title}\n${text}`, section.title)}>
          Copy section
        </Button>
        <DictateButton title={section.title} textarea={ref} change={change} disabled={locked} />
      </div>
      <TemplateMarks sentences={section.sentences} />
      {evidence && (evidence.sentences.length > 0 || section.content.trim()) ? <SentenceEvidence {...evidence} /> : null}
      <RewritePreviewDialog preview={rw.preview} onKeep={rw.dismiss} onReplace={rw.accept} />
    </section>
  );
}
