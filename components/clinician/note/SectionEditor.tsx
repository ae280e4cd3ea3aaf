'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Button, Dialog, toast } from '@/components/ui';
import { errorMessage } from '@/lib/api-client';
import type { ContentResponse, RewriteResponse, SummarySection } from '@/lib/contracts/sessions';
import { keys, useRewrite, useSaveSection } from '@/lib/hooks/sessions';
import { isAlt } from '../shortcuts';
import { applyRewrite, rewriteRequestFor } from './apply-rewrite';

const INSTRUCTIONS = [
  { value: 'CONCISE', label: 'Concise' },
  { value: 'VERBOSE', label: 'Verbose' },
  { value: 'PATIENT_FRIENDLY', label: 'Patient-friendly' },
] as const;
type Instruction = (typeof INSTRUCTIONS)[number]['value'];

const AUTOSAVE_MS = 800;

type SaveState = { kind: 'saved' } | { kind: 'dirty' } | { kind: 'saving' } | { kind: 'error'; message: string };

export async function copyText(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`${what} copied to the clipboard.`);
  } catch {
    toast.error(`${what} could not be copied: the browser refused clipboard access.`);
  }
}

export function SectionEditor({ sessionId, section, locked = false }: { sessionId: string; section: SummarySection; locked?: boolean }) {
  const qc = useQueryClient();
  const save = useSaveSection(sessionId);
  const rewrite = useRewrite();
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState(section.content);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'saved' });
  const [selection, setSelection] = useState<{ start: number; end: number }>({ start: 0, end: 0 });
  const [menu, setMenu] = useState(false);
  const [preview, setPreview] = useState<{ req: ReturnType<typeof rewriteRequestFor>; instruction: Instruction; res: RewriteResponse } | null>(null);
  const [undo, setUndo] = useState<string[]>([]);
  const latest = useRef(text);
  latest.current = text;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  const persist = useCallback(
    async (content: string) => {
      setSaveState({ kind: 'saving' });
      try {
        const r = await save.mutateAsync({ loinc: section.loinc_code, content });
        qc.setQueryData<ContentResponse>(keys.content(sessionId), (old) =>
          old ? { ...old, summary: old.summary.map((s) => (s.loinc_code === section.loinc_code ? r.section : s)) } : old,
        );
        // Typing may have continued while the request ran.
        setSaveState(latest.current === content ? { kind: 'saved' } : { kind: 'dirty' });
      } catch (err) {
        setSaveState({ kind: 'error', message: errorMessage(err) });
      }
    },
    [qc, save, section.loinc_code, sessionId],
  );

  const change = useCallback(
    (next: string) => {
      setText(next);
      setSaveState({ kind: 'dirty' });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void persist(next), AUTOSAVE_MS);
    },
    [persist],
  );

  // Leaving the page (or the note) must not drop an edit still waiting for its autosave.
  const persistRef = useRef(persist);
  persistRef.current = persist;
  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        void persistRef.current(latest.current);
      }
    },
    [],
  );

  const readSelection = () => {
    const el = ref.current;
    if (el) setSelection({ start: el.selectionStart, end: el.selectionEnd });
  };
  const hasSelection = selection.end > selection.start;

  async function runRewrite(instruction: Instruction) {
    setMenu(false);
    const req = rewriteRequestFor(text, selection.start, selection.end);
    try {
      const res = await rewrite.mutateAsync({ ...req, instruction, ambient_session_id: sessionId, loinc_code: section.loinc_code as never });
      setPreview({ req, instruction, res });
    } catch (err) {
      toast.error(`The rewrite failed: ${errorMessage(err)}`);
    }
  }

  function accept() {
    if (!preview) return;
    const r = applyRewrite(text, preview.req, preview.res);
    setPreview(null);
    if (!r.ok) {
      toast.error(r.reason);
      return;
    }
    setUndo((u) => [...u, text]);
    change(r.content);
    requestAnimationFrame(() => {
      const el = ref.current;
      if (!el) return;
      el.focus();
      el.setSelectionRange(r.selectionStart, r.selectionEnd);
      setSelection({ start: r.selectionStart, end: r.selectionEnd });
    });
  }

  function undoLast() {
    const prev = undo[undo.length - 1];
    if (prev === undefined) return;
    setUndo((u) => u.slice(0, -1));
    change(prev);
    toast.info('Rewrite undone.');
  }

  useEffect(() => {
    if (menu) menuRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [menu]);

  // Grow with the text so the whole section is visible without an inner scrollbar.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [text]);

  const status =
    saveState.kind === 'saved'
      ? 'Saved'
      : saveState.kind === 'saving'
        ? 'Saving…'
        : saveState.kind === 'dirty'
          ? 'Unsaved changes'
          : `Not saved: ${saveState.message}`;

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-3" data-testid="note-section" data-loinc={section.loinc_code}>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {section.title}
        </h3>
        <span className="text-xs text-slate-600">LOINC {section.loinc_code}</span>
        <span className={`ml-auto text-xs ${saveState.kind === 'error' ? 'font-medium text-red-700' : 'text-slate-700'}`} role="status" data-testid="save-state">
          {status}
        </span>
        {saveState.kind === 'error' ? (
          <Button size="sm" variant="secondary" onClick={() => void persist(text)}>
            Retry save
          </Button>
        ) : null}
      </div>
      <label htmlFor={`${id}-text`} className="sr-only">
        {section.title} text
      </label>
      <textarea
        id={`${id}-text`}
        ref={ref}
        value={text}
        onChange={(e) => change(e.target.value)}
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
            undoLast();
          }
        }}
        aria-keyshortcuts="Alt+W Alt+Z"
        className="min-h-20 w-full resize-y rounded-md border border-slate-300 p-2 text-sm leading-relaxed focus:outline-2 focus:outline-blue-700"
      />
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <div className="relative">
          <Button
            size="sm"
            variant="secondary"
            disabled={locked || !hasSelection || rewrite.isPending}
            loading={rewrite.isPending}
            aria-haspopup="menu"
            aria-expanded={menu}
            onClick={() => setMenu((m) => !m)}
            aria-keyshortcuts="Alt+W"
          >
            Rewrite selection…
          </Button>
          {menu ? (
            <div
              ref={menuRef}
              role="menu"
              aria-label="Rewrite the selection"
              className="absolute left-0 z-10 mt-1 flex w-48 flex-col rounded-md border border-slate-200 bg-white py-1 shadow-lg"
              onKeyDown={(e) => {
                const items = [...(menuRef.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? [])];
                const i = items.indexOf(document.activeElement as HTMLButtonElement);
                if (e.key === 'Escape') {
                  setMenu(false);
                  ref.current?.focus();
                } else if (e.key === 'ArrowDown') {
                  e.preventDefault();
                  items[(i + 1) % items.length]?.focus();
                } else if (e.key === 'ArrowUp') {
                  e.preventDefault();
                  items[(i - 1 + items.length) % items.length]?.focus();
                }
              }}
            >
              {INSTRUCTIONS.map((ins) => (
                <button key={ins.value} role="menuitem" type="button" className="px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-blue-50 focus:outline-none" onClick={() => void runRewrite(ins.value)}>
                  {ins.label}
                </button>
              ))}
            </div>
          ) : null}
        </div>
        <Button size="sm" variant="ghost" disabled={locked || undo.length === 0} onClick={undoLast} aria-keyshortcuts="Alt+Z">
          Undo rewrite
        </Button>
        <Button size="sm" variant="ghost" onClick={() => void copyText(`${section.title}\n${text}`, section.title)}>
          Copy section
        </Button>
      </div>
      <Dialog
        open={preview !== null}
        onClose={() => setPreview(null)}
        title={`Rewrite: ${INSTRUCTIONS.find((i) => i.value === preview?.instruction)?.label ?? ''}`}
        description="Compare, then replace the selected text or keep it."
        footer={
          <>
            <Button variant="secondary" onClick={() => setPreview(null)}>
              Keep original
            </Button>
            <Button onClick={accept}>Replace selection</Button>
          </>
        }
      >
        {preview ? (
          <div className="flex flex-col gap-3 text-sm">
            <div>
              <p className="font-medium text-slate-700">Selected</p>
              <p className="rounded-md bg-slate-50 p-2 whitespace-pre-wrap">{preview.req.selected_text}</p>
            </div>
            <div>
              <p className="font-medium text-slate-700">Rewritten</p>
              <p className="rounded-md bg-green-50 p-2 whitespace-pre-wrap" data-testid="rewrite-preview">
                {preview.res.rewritten_text}
              </p>
            </div>
          </div>
        ) : null}
      </Dialog>
    </section>
  );
}
